/* test_fit: fit's search over the steps (layout_fit_search, docs/layouts.md
 * "Fit") with made-up answers (no fonts): every monotone answer from every
 * guess finds the smallest step that fits; every answer at all (the 1024
 * ways the ten steps can fit or not) gives a step that fits and whose step
 * below was tried and does not, or 11 with step 10 tried and no step tried
 * fitting; no step is tried twice, at most 6 are tried, and the same
 * answers give the same steps in the same order. */
#include "layout.h"
#include "t.h"

typedef struct {
	unsigned fits;     /* bit k: step k fits */
	int stop_at;       /* the answer -1 for this step (0: none) */
	int tried[12];     /* how often each step was tried */
	int order[16], n;  /* the steps in the order tried */
	int bad_lo;        /* lo was not the largest step known not to fit */
	int known_lo;
} answers_t;

static int answer(void *ctx, int k, int lo)
{
	answers_t *a = ctx;
	if (k < 1 || k > 10)
		return a->bad_lo = 1, 0;
	a->tried[k]++;
	if (a->n < 16)
		a->order[a->n] = k;
	a->n++;
	if (lo != a->known_lo)
		a->bad_lo = 1;
	if (k == a->stop_at)
		return -1;
	int r = (int)(a->fits >> k & 1);
	if (!r && k > a->known_lo)
		a->known_lo = k;
	return r;
}

static int search(answers_t *a, unsigned fits, int guess)
{
	memset(a, 0, sizeof(*a));
	a->fits = fits;
	return layout_fit_search(guess, answer, a);
}

/* The same answers and guess: the same steps, in the same order. */
static int same_again(unsigned fits, int guess, const answers_t *was)
{
	answers_t b;
	search(&b, fits, guess);
	return b.n == was->n && !memcmp(b.order, was->order, sizeof(b.order));
}

TEST(test_monotone)
{
	for (int first = 1; first <= 11; first++) {
		unsigned fits = 0;
		for (int k = first; k <= 10; k++)
			fits |= 1u << k;
		for (int g = 0; g <= 10; g++) {
			answers_t a;
			int r = search(&a, fits, g);
			EQ_INT(r, first);
			CHECK(a.n <= 6);
			CHECK(!a.bad_lo);
			CHECK(same_again(fits, g, &a));
			if (r <= 10)
				CHECK(a.tried[r] == 1 && (r == 1 || a.tried[r - 1] == 1));
			else
				CHECK(a.tried[10] == 1);
		}
	}
	/* a good guess costs two steps: the guess, and the step below it */
	answers_t a;
	EQ_INT(search(&a, 0x7F0u, 4), 4);   /* steps 4..10 fit */
	EQ_INT(a.n, 2);
	EQ_INT(a.order[0], 4);
	EQ_INT(a.order[1], 3);
	/* a guess one step short: the guess, then the step above */
	EQ_INT(search(&a, 0x7E0u, 4), 5);
	EQ_INT(a.n, 2);
	/* nothing fits, from a guess of 10: one step */
	EQ_INT(search(&a, 0, 10), 11);
	EQ_INT(a.n, 1);
	/* no guess: step 10 first */
	EQ_INT(search(&a, 0x7FEu, 0), 1);
	EQ_INT(a.order[0], 10);
}

TEST(test_any_answers)
{
	for (unsigned m = 0; m < 1024; m++) {
		unsigned fits = m << 1;   /* steps 1..10 */
		for (int g = 0; g <= 10; g++) {
			answers_t a;
			int r = search(&a, fits, g);
			CHECK(a.n <= 6);
			CHECK(!a.bad_lo);
			CHECK(same_again(fits, g, &a));
			for (int k = 1; k <= 10; k++)
				CHECK(a.tried[k] <= 1);
			if (r >= 1 && r <= 10) {
				/* a step that fits, tried, the step below tried and not fitting */
				CHECK(fits >> r & 1);
				CHECK(a.tried[r] == 1);
				CHECK(r == 1 || (a.tried[r - 1] == 1 && !(fits >> (r - 1) & 1)));
			} else {
				EQ_INT(r, 11);
				CHECK(a.tried[10] == 1);
				for (int k = 1; k <= 10; k++)
					CHECK(!a.tried[k] || !(fits >> k & 1));
			}
		}
	}
}

/* An attempt that ends the search (-1: it had errors) ends it at once. */
TEST(test_stop)
{
	answers_t a;
	memset(&a, 0, sizeof(a));
	a.fits = 0x7F0u;
	a.stop_at = 4;
	EQ_INT(layout_fit_search(4, answer, &a), -1);
	EQ_INT(a.n, 1);
}

int main(void)
{
	RUN(test_monotone);
	RUN(test_any_answers);
	RUN(test_stop);
	return t_report();
}
