/* profile_bib_tex: the LaTeX of BibTeX values -> UTF-8 (and vita markup).
 *
 * Accents (\'e, \"{o}, {\c c}, \v s, \'{\i} ...), letters (\ss \o \ae \l
 * ...), escaped specials (\& \% \$ \# \_), dashes (-- ---), quotes (``
 * ''), ~ as a space; \textit, \emph and \textbf as italic and bold markup
 * (or plain text), \url{x} and \href{u}{t}; math ($\alpha$, $^{2}$,
 * $_{\odot}$, $z\sim2$) with Greek letters, common symbols and the
 * super- and subscripts Unicode has; the AAS journal macros (\apj,
 * \mnras, \aap, ...) as the journal's name. Braces are dropped; an
 * unknown command's name is dropped and its argument kept.
 */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include "buf.h"
#include "profile_bib.h"
#include "utf8.h"

static const struct accent {
	char acc;
	const char *bases;
	const uint16_t *cps;
	uint16_t combining;
} accents[] = {
	{'\'', "aeiouyAEIOUYcnszCNSZlrLRg", (const uint16_t[]){0xE1, 0xE9, 0xED, 0xF3, 0xFA, 0xFD, 0xC1, 0xC9, 0xCD, 0xD3, 0xDA, 0xDD, 0x107, 0x144, 0x15B, 0x17A, 0x106, 0x143, 0x15A, 0x179, 0x13A, 0x155, 0x139, 0x154, 0x1F5}, 0x301},
	{'`', "aeiouAEIOU", (const uint16_t[]){0xE0, 0xE8, 0xEC, 0xF2, 0xF9, 0xC0, 0xC8, 0xCC, 0xD2, 0xD9}, 0x300},
	{'^', "aeiouAEIOUcgshjwyCGSHJWY", (const uint16_t[]){0xE2, 0xEA, 0xEE, 0xF4, 0xFB, 0xC2, 0xCA, 0xCE, 0xD4, 0xDB, 0x109, 0x11D, 0x15D, 0x125, 0x135, 0x175, 0x177, 0x108, 0x11C, 0x15C, 0x124, 0x134, 0x174, 0x176}, 0x302},
	{'"', "aeiouyAEIOUY", (const uint16_t[]){0xE4, 0xEB, 0xEF, 0xF6, 0xFC, 0xFF, 0xC4, 0xCB, 0xCF, 0xD6, 0xDC, 0x178}, 0x308},
	{'~', "anoANOiuIU", (const uint16_t[]){0xE3, 0xF1, 0xF5, 0xC3, 0xD1, 0xD5, 0x129, 0x169, 0x128, 0x168}, 0x303},
	{'c', "csCStTgGkKlLnNrR", (const uint16_t[]){0xE7, 0x15F, 0xC7, 0x15E, 0x163, 0x162, 0x123, 0x122, 0x137, 0x136, 0x13C, 0x13B, 0x146, 0x145, 0x157, 0x156}, 0x327},
	{'v', "cszrenCSZRENdtDTlL", (const uint16_t[]){0x10D, 0x161, 0x17E, 0x159, 0x11B, 0x148, 0x10C, 0x160, 0x17D, 0x158, 0x11A, 0x147, 0x10F, 0x165, 0x10E, 0x164, 0x13E, 0x13D}, 0x30C},
	{'u', "gaGAeEiIoOuU", (const uint16_t[]){0x11F, 0x103, 0x11E, 0x102, 0x115, 0x114, 0x12D, 0x12C, 0x14F, 0x14E, 0x16D, 0x16C}, 0x306},
	{'r', "auAU", (const uint16_t[]){0xE5, 0x16F, 0xC5, 0x16E}, 0x30A},
	{'.', "zZIeEgGcC", (const uint16_t[]){0x17C, 0x17B, 0x130, 0x117, 0x116, 0x121, 0x120, 0x10B, 0x10A}, 0x307},
	{'=', "aeiouAEIOU", (const uint16_t[]){0x101, 0x113, 0x12B, 0x14D, 0x16B, 0x100, 0x112, 0x12A, 0x14C, 0x16A}, 0x304},
	{'H', "ouOU", (const uint16_t[]){0x151, 0x171, 0x150, 0x170}, 0x30B},
	{'k', "aeAEiIuU", (const uint16_t[]){0x105, 0x119, 0x104, 0x118, 0x12F, 0x12E, 0x173, 0x172}, 0x328},
	{'d', "", (const uint16_t[]){0}, 0x323},
	{'b', "", (const uint16_t[]){0}, 0x331},
};

/* Commands that stand for text, in and out of math. */
static const struct { const char *name, *utf8; } symbols[] = {
	{"ss", "ß"}, {"o", "ø"}, {"O", "Ø"}, {"ae", "æ"}, {"AE", "Æ"},
	{"oe", "œ"}, {"OE", "Œ"}, {"aa", "å"}, {"AA", "Å"}, {"l", "ł"},
	{"L", "Ł"}, {"i", "ı"}, {"j", "ȷ"}, {"dh", "ð"}, {"DH", "Ð"},
	{"th", "þ"}, {"TH", "Þ"}, {"ng", "ŋ"}, {"NG", "Ŋ"}, {"dj", "đ"}, {"DJ", "Đ"},
	{"LaTeX", "LaTeX"}, {"TeX", "TeX"}, {"BibTeX", "BibTeX"},
	{"textendash", "–"}, {"textemdash", "—"}, {"textquoteright", "’"},
	{"textquoteleft", "‘"}, {"textquotedblleft", "“"}, {"textquotedblright", "”"},
	{"dag", "†"}, {"ddag", "‡"}, {"textdagger", "†"}, {"textdaggerdbl", "‡"},
	{"S", "§"}, {"P", "¶"}, {"copyright", "©"}, {"textcopyright", "©"},
	{"textregistered", "®"}, {"texttrademark", "™"}, {"pounds", "£"},
	{"euro", "€"}, {"texteuro", "€"}, {"textdegree", "°"}, {"degree", "°"},
	{"textasciitilde", "~"}, {"textbar", "|"}, {"textless", "<"},
	{"textgreater", ">"}, {"textbullet", "•"}, {"textbackslash", "\\"},
	{"ldots", "…"}, {"dots", "…"}, {"textellipsis", "…"}, {"cdots", "⋯"},
	{"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"},
	{"epsilon", "ϵ"}, {"varepsilon", "ε"}, {"zeta", "ζ"}, {"eta", "η"},
	{"theta", "θ"}, {"vartheta", "ϑ"}, {"iota", "ι"}, {"kappa", "κ"},
	{"lambda", "λ"}, {"mu", "μ"}, {"nu", "ν"}, {"xi", "ξ"}, {"pi", "π"},
	{"varpi", "ϖ"}, {"rho", "ρ"}, {"varrho", "ϱ"}, {"sigma", "σ"},
	{"varsigma", "ς"}, {"tau", "τ"}, {"upsilon", "υ"}, {"phi", "ϕ"},
	{"varphi", "φ"}, {"chi", "χ"}, {"psi", "ψ"}, {"omega", "ω"},
	{"Gamma", "Γ"}, {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"},
	{"Xi", "Ξ"}, {"Pi", "Π"}, {"Sigma", "Σ"}, {"Upsilon", "Υ"},
	{"Phi", "Φ"}, {"Psi", "Ψ"}, {"Omega", "Ω"},
	{"sim", "∼"}, {"approx", "≈"}, {"simeq", "≃"}, {"cong", "≅"},
	{"pm", "±"}, {"mp", "∓"}, {"times", "×"}, {"div", "÷"}, {"cdot", "·"},
	{"leq", "≤"}, {"le", "≤"}, {"geq", "≥"}, {"ge", "≥"}, {"neq", "≠"},
	{"ne", "≠"}, {"ll", "≪"}, {"gg", "≫"}, {"lesssim", "≲"}, {"gtrsim", "≳"},
	{"la", "≲"}, {"ga", "≳"}, {"propto", "∝"}, {"equiv", "≡"},
	{"infty", "∞"}, {"odot", "⊙"}, {"sun", "☉"}, {"earth", "⊕"},
	{"oplus", "⊕"}, {"otimes", "⊗"}, {"circ", "∘"}, {"bullet", "•"},
	{"prime", "′"}, {"star", "⋆"}, {"ast", "∗"}, {"to", "→"},
	{"rightarrow", "→"}, {"leftarrow", "←"}, {"leftrightarrow", "↔"},
	{"Rightarrow", "⇒"}, {"Leftarrow", "⇐"}, {"uparrow", "↑"},
	{"downarrow", "↓"}, {"partial", "∂"}, {"nabla", "∇"}, {"sum", "∑"},
	{"prod", "∏"}, {"int", "∫"}, {"sqrt", "√"}, {"ell", "ℓ"}, {"hbar", "ħ"},
	{"in", "∈"}, {"notin", "∉"}, {"subset", "⊂"}, {"subseteq", "⊆"},
	{"cup", "∪"}, {"cap", "∩"}, {"forall", "∀"}, {"exists", "∃"},
	{"neg", "¬"}, {"wedge", "∧"}, {"vee", "∨"}, {"emptyset", "∅"},
	{"langle", "⟨"}, {"rangle", "⟩"}, {"mid", "|"}, {"vert", "|"},
	{"angstrom", "Å"}, {"micro", "µ"}, {"deg", "°"}, {"arcsec", "″"},
	{"arcmin", "′"}, {"farcs", "″"}, {"farcm", "′"}, {"sq", "□"},
	{"quad", " "}, {"qquad", " "}, {"space", " "}, {"log", "log"},
	{"ln", "ln"}, {"exp", "exp"}, {"sin", "sin"}, {"cos", "cos"},
	{"max", "max"}, {"min", "min"},
};

/* The AAS journal abbreviations (aas_macros.sty, as ADS exports them). */
static const struct { const char *name, *journal; } aas[] = {
	{"aj", "Astronomical Journal"}, {"actaa", "Acta Astronomica"},
	{"araa", "Annual Review of Astronomy and Astrophysics"},
	{"apj", "Astrophysical Journal"}, {"apjl", "Astrophysical Journal Letters"},
	{"apjs", "Astrophysical Journal Supplement Series"}, {"ao", "Applied Optics"},
	{"apss", "Astrophysics and Space Science"}, {"aap", "Astronomy and Astrophysics"},
	{"aapr", "Astronomy and Astrophysics Review"},
	{"aaps", "Astronomy and Astrophysics Supplement Series"},
	{"azh", "Astronomicheskii Zhurnal"}, {"baas", "Bulletin of the American Astronomical Society"},
	{"bac", "Bulletin of the Astronomical Institutes of Czechoslovakia"},
	{"caa", "Chinese Astronomy and Astrophysics"},
	{"cjaa", "Chinese Journal of Astronomy and Astrophysics"}, {"icarus", "Icarus"},
	{"jcap", "Journal of Cosmology and Astroparticle Physics"},
	{"jrasc", "Journal of the Royal Astronomical Society of Canada"},
	{"memras", "Memoirs of the Royal Astronomical Society"},
	{"mnras", "Monthly Notices of the Royal Astronomical Society"},
	{"na", "New Astronomy"}, {"nar", "New Astronomy Reviews"},
	{"pasa", "Publications of the Astronomical Society of Australia"},
	{"pra", "Physical Review A"}, {"prb", "Physical Review B"},
	{"prc", "Physical Review C"}, {"prd", "Physical Review D"},
	{"pre", "Physical Review E"}, {"prl", "Physical Review Letters"},
	{"pasp", "Publications of the Astronomical Society of the Pacific"},
	{"pasj", "Publications of the Astronomical Society of Japan"},
	{"qjras", "Quarterly Journal of the Royal Astronomical Society"},
	{"rmxaa", "Revista Mexicana de Astronomía y Astrofísica"},
	{"skytel", "Sky and Telescope"}, {"solphys", "Solar Physics"},
	{"sovast", "Soviet Astronomy"}, {"ssr", "Space Science Reviews"},
	{"zap", "Zeitschrift für Astrophysik"}, {"nat", "Nature"},
	{"iaucirc", "IAU Circulars"}, {"aplett", "Astrophysics Letters"},
	{"apspr", "Astrophysics Space Physics Research"},
	{"bain", "Bulletin of the Astronomical Institutes of the Netherlands"},
	{"fcp", "Fundamentals of Cosmic Physics"}, {"gca", "Geochimica et Cosmochimica Acta"},
	{"grl", "Geophysical Research Letters"}, {"jcp", "Journal of Chemical Physics"},
	{"jgr", "Journal of Geophysical Research"},
	{"jqsrt", "Journal of Quantitative Spectroscopy and Radiative Transfer"},
	{"memsai", "Memorie della Società Astronomica Italiana"},
	{"nphysa", "Nuclear Physics A"}, {"physrep", "Physics Reports"},
	{"physscr", "Physica Scripta"}, {"planss", "Planetary and Space Science"},
	{"procspie", "Proceedings of the SPIE"}, {"psj", "Planetary Science Journal"},
	{"apjss", "Astrophysical Journal Supplement Series"},
};

static const char sup_from[] = "0123456789+-=()ni";
static const char *const sup_to[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹", "⁺", "⁻", "⁼", "⁽", "⁾", "ⁿ", "ⁱ"};
static const char sub_from[] = "0123456789+-=()aeox";
static const char *const sub_to[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉", "₊", "₋", "₌", "₍", "₎", "ₐ", "ₑ", "ₒ", "ₓ"};

typedef struct tx {
	const char *s;
	size_t n, i;
	int markup;       /* emit vita markup (escape * [ ] \) */
	int math;         /* inside $...$ */
	int depth;        /* recursion, bounded */
	buf_t *o;
} tx_t;

static void put_cp(buf_t *o, uint32_t cp)
{
	char tmp[4];
	buf_add(o, tmp, (size_t)utf8_encode(cp, tmp));
}

static void put_lit(tx_t *t, char ch)
{
	if (t->markup && (ch == '*' || ch == '[' || ch == ']' || ch == '\\'))
		buf_putc(t->o, '\\');
	buf_putc(t->o, ch);
}

static void run(tx_t *t, size_t end);

/* The {group} or single token at t->i: its extent [*a, *b). */
static void arg_span(tx_t *t, size_t *a, size_t *b)
{
	while (t->i < t->n && t->s[t->i] == ' ')
		t->i++;
	if (t->i < t->n && t->s[t->i] == '{') {
		int d = 0;
		size_t j = t->i;
		for (; j < t->n; j++) {
			if (t->s[j] == '\\' && j + 1 < t->n) {
				j++;
				continue;
			}
			if (t->s[j] == '{')
				d++;
			else if (t->s[j] == '}' && --d == 0)
				break;
		}
		*a = t->i + 1;
		*b = j < t->n ? j : t->n;
		t->i = j < t->n ? j + 1 : t->n;
		return;
	}
	*a = t->i;
	if (t->i < t->n && t->s[t->i] == '\\') {
		t->i++;
		while (t->i < t->n && isalpha((unsigned char)t->s[t->i]))
			t->i++;
		if (t->i == *a + 1 && t->i < t->n)
			t->i++;
	} else if (t->i < t->n) {
		uint32_t cp;
		t->i += (size_t)utf8_next(t->s + t->i, t->n - t->i, &cp);
	}
	*b = t->i;
}

/* Decode s[a..b) into t's output (the same state otherwise). */
static void sub(tx_t *t, size_t a, size_t b)
{
	if (t->depth > 32)
		return;
	size_t si = t->i;
	t->depth++;
	t->i = a;
	run(t, b);
	t->depth--;
	t->i = si;
}

/* ^x or _x: the scripts Unicode has, else the text itself. */
static void script(tx_t *t, int sup)
{
	size_t a, b;
	arg_span(t, &a, &b);
	buf_t tmp, *save = t->o;
	buf_init(&tmp);
	t->o = &tmp;
	sub(t, a, b);
	t->o = save;
	const char *from = sup ? sup_from : sub_from;
	const char *const *to = sup ? sup_to : sub_to;
	int ok = tmp.len > 0;
	for (size_t i = 0; i < tmp.len && ok; i++)
		ok = strchr(from, tmp.s[i]) != NULL;
	if (ok) {
		for (size_t i = 0; i < tmp.len; i++)
			buf_puts(t->o, to[strchr(from, tmp.s[i]) - from]);
	} else if (sup && tmp.len == 3 && !memcmp(tmp.s, "∘", 3)) {
		buf_puts(t->o, "°");
	} else if (tmp.len) {
		buf_add(t->o, tmp.s, tmp.len);
	}
	buf_done(&tmp);
}

static const struct accent *accent_find(int ch)
{
	for (size_t i = 0; i < sizeof(accents) / sizeof(accents[0]); i++)
		if (accents[i].acc == ch)
			return &accents[i];
	return NULL;
}

static void accent_apply(tx_t *t, const struct accent *ac)
{
	size_t a, b;
	arg_span(t, &a, &b);
	int base = 0;
	if (b > a + 1 && t->s[a] == '\\' && (t->s[a + 1] == 'i' || t->s[a + 1] == 'j'))
		base = t->s[a + 1];
	else if (b > a && isalpha((unsigned char)t->s[a]))
		base = t->s[a];
	if (!base) {
		sub(t, a, b);
		return;
	}
	const char *p = strchr(ac->bases, base);
	if (p)
		put_cp(t->o, ac->cps[p - ac->bases]);
	else {
		buf_putc(t->o, base);
		put_cp(t->o, ac->combining);
	}
}

/* A styled argument: *x* or **x** in markup, else x. */
static void styled(tx_t *t, const char *mark)
{
	size_t a, b;
	arg_span(t, &a, &b);
	if (t->markup)
		buf_puts(t->o, mark);
	sub(t, a, b);
	if (t->markup)
		buf_puts(t->o, mark);
}

static int name_is(const char *s, size_t len, const char *name)
{
	return strlen(name) == len && !memcmp(s, name, len);
}

static void command(tx_t *t)
{
	const char *s = t->s;
	size_t j = t->i;          /* just after the backslash */
	if (j >= t->n)
		return;
	if (!isalpha((unsigned char)s[j])) {
		const struct accent *ac = accent_find(s[j]);
		t->i = j + 1;
		if (ac && !t->math)
			accent_apply(t, ac);
		else if (s[j] == '\\' || s[j] == ',' || s[j] == ';' || s[j] == ' ')
			buf_putc(t->o, ' ');
		else if (s[j] != '-' && s[j] != '/')
			put_lit(t, s[j]);
		return;
	}
	size_t k = j;
	while (k < t->n && isalpha((unsigned char)s[k]))
		k++;
	size_t len = k - j;
	const struct accent *ac;
	t->i = k;
	if (len == 1 && (ac = accent_find(s[j])) && k < t->n &&
	    (s[k] == '{' || s[k] == ' ')) {
		accent_apply(t, ac);
		return;
	}
	const char *nm = s + j;
	if (name_is(nm, len, "textit") || name_is(nm, len, "emph") ||
	    name_is(nm, len, "textsl") || name_is(nm, len, "it") || name_is(nm, len, "em")) {
		if (len <= 2) {   /* {\it x}: the rest of the group */
			return;
		}
		styled(t, "*");
		return;
	}
	if (name_is(nm, len, "textbf") || name_is(nm, len, "mathbf")) {
		styled(t, "**");
		return;
	}
	if (name_is(nm, len, "textsuperscript") || name_is(nm, len, "textsubscript")) {
		script(t, nm[4] == 's' && nm[5] == 'u' && nm[6] == 'p');
		return;
	}
	if (name_is(nm, len, "url")) {
		size_t a, b;
		arg_span(t, &a, &b);
		for (size_t x = a; x < b; x++)
			put_lit(t, s[x]);
		return;
	}
	if (name_is(nm, len, "href")) {
		size_t ua, ub, a, b;
		arg_span(t, &ua, &ub);
		arg_span(t, &a, &b);
		if (t->markup)
			buf_putc(t->o, '[');
		sub(t, a, b);
		if (t->markup) {
			buf_puts(t->o, "](");
			buf_add(t->o, s + ua, ub - ua);
			buf_putc(t->o, ')');
		}
		return;
	}
	for (size_t x = 0; x < sizeof(aas) / sizeof(aas[0]); x++)
		if (name_is(nm, len, aas[x].name)) {
			buf_puts(t->o, aas[x].journal);
			return;
		}
	for (size_t x = 0; x < sizeof(symbols) / sizeof(symbols[0]); x++)
		if (name_is(nm, len, symbols[x].name)) {
			buf_puts(t->o, symbols[x].utf8);
			while (t->i < t->n && s[t->i] == ' ')
				t->i++;   /* as in TeX, spaces after a command word end it */
			return;
		}
	while (t->i < t->n && s[t->i] == ' ')   /* unknown: drop the name, keep args */
		t->i++;
}

static void run(tx_t *t, size_t end)
{
	const char *s = t->s;
	while (t->i < end) {
		char ch = s[t->i];
		if (ch == '\\') {
			t->i++;
			size_t save = t->n;
			t->n = end;
			command(t);
			t->n = save;
		} else if (ch == '$') {
			t->math = !t->math;
			t->i++;
		} else if (t->math && (ch == '^' || ch == '_')) {
			t->i++;
			size_t save = t->n;
			t->n = end;
			script(t, ch == '^');
			t->n = save;
		} else if (ch == '{' || ch == '}') {
			t->i++;
		} else if (t->math && (ch == ' ' || ch == '\n' || ch == '\t')) {
			t->i++;
		} else if (ch == '-' && t->i + 2 < end && s[t->i + 1] == '-' && s[t->i + 2] == '-') {
			buf_puts(t->o, "—");
			t->i += 3;
		} else if (ch == '-' && t->i + 1 < end && s[t->i + 1] == '-') {
			buf_puts(t->o, "–");
			t->i += 2;
		} else if (ch == '`' && t->i + 1 < end && s[t->i + 1] == '`') {
			buf_puts(t->o, "“");
			t->i += 2;
		} else if (ch == '\'' && t->i + 1 < end && s[t->i + 1] == '\'') {
			buf_puts(t->o, "”");
			t->i += 2;
		} else if (isspace((unsigned char)ch) || ch == '~') {
			if (t->o->len && t->o->s[t->o->len - 1] != ' ')
				buf_putc(t->o, ' ');
			t->i++;
		} else {
			put_lit(t, ch);
			t->i++;
		}
	}
}

char *pbib_latex(arena_t *a, const char *s, size_t n, int markup)
{
	buf_t o;
	buf_init(&o);
	tx_t t = {s, n, 0, markup, 0, 0, &o};
	run(&t, n);
	size_t st = 0;
	while (st < o.len && o.s[st] == ' ')
		st++;
	while (o.len > st && o.s[o.len - 1] == ' ')
		o.len--;
	char *r = arena_strndup(a, o.s ? o.s + st : "", o.len - st);
	buf_done(&o);
	return r;
}
