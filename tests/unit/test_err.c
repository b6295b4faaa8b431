/* test_err: the error list: exit codes, err_context on what the latest
 * call recorded, and the cap on recorded entries. */
#include <stdio.h>
#include "err.h"
#include "t.h"

TEST(codes_and_context)
{
	errs_t e;
	errs_init(&e);
	EQ_INT(err_at(&e, "a.yaml", 1, 2, "bad %d", 1), -1);
	err_context(&e, "while reading %s", "a.yaml");
	EQ_INT(warn_at(&e, "a.yaml", 3, 4, "odd"), 0);
	EQ_INT(errs_code(&e), ERR_INPUT);
	EQ_INT(err_at_code(&e, ERR_SYSTEM, "f.ttf", 5, 6, "no font"), -1);
	EQ_INT(e.n, 3);
	EQ_STR(e.v[0].context, "while reading a.yaml");
	EQ_STR(e.v[1].context, "");
	EQ_INT(e.v[2].code, ERR_SYSTEM);
	EQ_INT(e.v[2].line, 5);
	EQ_INT(errs_code(&e), ERR_SYSTEM);
	err_sys(&e, "out.pdf", "cannot write");
	err_context(&e, "while writing %s", "out.pdf");
	EQ_STR(e.v[3].context, "while writing out.pdf");
	EQ_INT(e.v[3].line, 0);
	errs_done(&e);
}

/* Past `max` nothing is recorded, and err_context must not touch the
 * entry recorded before. */
TEST(context_past_max)
{
	errs_t e;
	errs_init(&e);
	e.max = 1;
	err_at(&e, "a", 1, 1, "first");
	err_at(&e, "a", 2, 1, "second");
	err_context(&e, "must not land on the first");
	EQ_INT(e.n, 1);
	EQ_INT(e.nerrors, 2);
	EQ_STR(e.v[0].context, "");
	errs_clear(&e);
	err_context(&e, "nothing recorded yet");
	EQ_INT(e.n, 0);
	errs_done(&e);
}

int main(void)
{
	RUN(codes_and_context);
	RUN(context_past_max);
	return t_report();
}
