/* t.h: the 20-line unit test harness. Each test file defines tests with
 * TEST(name) { ... CHECK(cond); EQ_INT(a, b); EQ_STR(a, b); } and a main
 * that calls RUN(name) for each, then returns t_report(). */
#ifndef VITA_T_H
#define VITA_T_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int t_fail, t_run;
#define TEST(name) static void name(void)
#define RUN(name) (t_run++, name())
#define CHECK(c) do { if (!(c)) { t_fail++; \
	fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define EQ_INT(a, b) do { long long _a = (a), _b = (b); if (_a != _b) { t_fail++; \
	fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, _a, _b); } } while (0)
#define EQ_STR(a, b) do { const char *_a = (a), *_b = (b); \
	if (!_a || !_b || strcmp(_a, _b)) { t_fail++; \
	fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
	        _a ? _a : "(null)", _b ? _b : "(null)"); } } while (0)
/* A new directory NAME-XXXXXX under $TMPDIR (else /tmp) into buf
 * (mkdtemp); 0, or -1 when it cannot be made. */
static inline int t_tmpdir(char *buf, size_t size, const char *name)
{
	const char *t = getenv("TMPDIR");
	int n = snprintf(buf, size, "%s/%s-XXXXXX", t && *t ? t : "/tmp", name);
	if (n < 0 || (size_t)n >= size || !mkdtemp(buf)) {
		perror(buf);
		return -1;
	}
	return 0;
}
static int t_report(void)
{
	fprintf(stderr, "%d tests, %d failures\n", t_run, t_fail);
	return t_fail != 0;
}
#endif
