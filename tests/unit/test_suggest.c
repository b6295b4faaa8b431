/* suggest: suggest_within (the bounded search behind the font family
 * "did you mean") agrees with suggest_distance (profile keys, layout keys,
 * commands) on every pair: the same distance whenever it is within the
 * limit, a number past the limit otherwise. */
#include <stdint.h>
#include "t.h"
#include "suggest.h"

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* One pair against every limit from -1 to 9; 1 when all agree. */
static int agree(const char *a, const char *b)
{
	int d = suggest_distance(a, b);
	for (int max = -1; max <= 9; max++) {
		int w = suggest_within(a, b, max);
		if (d <= max ? w != d : w <= max) {
			fprintf(stderr, "'%s' '%s': distance %d, within %d: %d\n", a, b, d, max, w);
			return 0;
		}
	}
	return 1;
}

TEST(known_pairs)
{
	static const char *const p[][2] = {
		{"", ""}, {"", "a"}, {"abc", ""}, {"Noto Sanz", "Noto Sans"},
		{"noto serif", "Noto Serif"}, {"Noto Srif", "Noto Serif"},
		{"New Computer Modern", "Noto Serif CJK SC"}, {"Source Sans 3", "Source Sans Pro"},
		{"ab", "ba"}, {"aB", "Ba"}, {"Ab", "bA"}, {"abcd", "badc"}, {"ca", "abc"},
		{"sectoins", "sections"}, {"hihglights", "highlights"}, {"Lat0", "Lato"},
		{"DejaVu Sans", "DejaVu Sans Mono"}, {"kitten", "sitting"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a"},
	};
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		CHECK(agree(p[i][0], p[i][1]));
		CHECK(agree(p[i][1], p[i][0]));
	}
	EQ_INT(suggest_within("Noto Sanz", "Noto Sans", 3), 1);
	EQ_INT(suggest_within("ab", "ba", 1), 1);
	CHECK(suggest_within("New Computer Modern", "Noto Sans", 3) > 3);
	EQ_INT(suggest_within("a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 3), 99);
}

/* Random strings over a few letters in both cases, a blank and a digit
 * (so that case, swaps and repeats all occur), and copies of them with a
 * few random edits (so that most distances are small: the band and the
 * early exit are what is tested). */
TEST(random_pairs)
{
	static const char al[] = "aAbBc 1";
	char a[80], b[80];
	int bad = 0, n = 0;
	for (int t = 0; t < 30000 && bad < 5; t++) {
		int la = (int)(rnd() % (t % 10 == 0 ? 70 : 24));
		for (int i = 0; i < la; i++)
			a[i] = al[rnd() % (sizeof(al) - 1)];
		a[la] = 0;
		int lb;
		if (t & 1) {
			lb = (int)(rnd() % 24);
			for (int i = 0; i < lb; i++)
				b[i] = al[rnd() % (sizeof(al) - 1)];
		} else {
			memcpy(b, a, (size_t)la);
			lb = la;
			for (int e = (int)(rnd() % 6); e > 0; e--) {
				int at = lb ? (int)(rnd() % (unsigned)lb) : 0, op = (int)(rnd() % 4);
				char ch = al[rnd() % (sizeof(al) - 1)];
				if (op == 0 && lb < 75) {           /* insert */
					memmove(b + at + 1, b + at, (size_t)(lb - at));
					b[at] = ch;
					lb++;
				} else if (op == 1 && lb > 0) {     /* delete */
					memmove(b + at, b + at + 1, (size_t)(lb - at - 1));
					lb--;
				} else if (op == 2 && lb > 0) {     /* substitute */
					b[at] = ch;
				} else if (at + 1 < lb) {           /* swap */
					char c = b[at];
					b[at] = b[at + 1];
					b[at + 1] = c;
				}
			}
		}
		b[lb] = 0;
		bad += !agree(a, b);
		n++;
	}
	EQ_INT(bad, 0);
	EQ_INT(n, 30000);
}

int main(void)
{
	RUN(known_pairs);
	RUN(random_pairs);
	return t_report();
}
