/* font_pick: which entry of a chain draws a character: the CJK language of
 * a language tag or of a character's script, the entry orders per
 * language, and the per-chain (code point, language, style) cache. Calls
 * font_face.c (to load a face and ask its cmap) and font_chain.c (to look
 * up a fallback family the first time a character gets to it).
 */
#include <string.h>
#include <strings.h>
#include <hb.h>
#include "font_int.h"

/* 1 when a zh language tag means Traditional Chinese: a Hant script
 * subtag, or a TW, HK or MO region with no Hans before it. */
static int zh_hant(const char *lang)
{
	for (const char *s = lang + 2; *s;) {
		s++; /* the '-' or '_' */
		size_t n = strcspn(s, "-_");
		if (n == 4 && !strncasecmp(s, "hans", 4))
			return 0;
		if ((n == 4 && !strncasecmp(s, "hant", 4)) ||
		    (n == 2 && (!strncasecmp(s, "tw", 2) || !strncasecmp(s, "hk", 2) ||
		                !strncasecmp(s, "mo", 2))))
			return 1;
		s += n;
	}
	return 0;
}

int font_lang_index(const char *lang)
{
	if (!lang || !lang[0] || !lang[1] || (lang[2] && lang[2] != '-' && lang[2] != '_'))
		return FONT_LANG_NONE;
	if (lang[0] == 'z' && lang[1] == 'h')
		return zh_hant(lang) ? FONT_LANG_ZH_HANT : FONT_LANG_ZH;
	if (lang[0] == 'j' && lang[1] == 'a')
		return FONT_LANG_JA;
	if (lang[0] == 'k' && lang[1] == 'o')
		return FONT_LANG_KO;
	return FONT_LANG_NONE;
}

/* The CJK language a character's script implies: Hangul -> ko, kana ->
 * ja, Han and CJK punctuation -> zh; FONT_LANG_NONE for everything else. */
int font_script_lang(uint32_t cp)
{
	if (cp < 0x1100)
		return FONT_LANG_NONE;
	if (cp >= 0x20000 && cp <= 0x3ffff)   /* CJK Extensions B-H, compatibility supplement */
		return FONT_LANG_ZH;
	if ((cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xa960 && cp <= 0xa97f) ||
	    (cp >= 0xac00 && cp <= 0xd7ff) || (cp >= 0xffa0 && cp <= 0xffdc))
		return FONT_LANG_KO;
	if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) ||
	    (cp >= 0xff66 && cp <= 0xff9f))
		return FONT_LANG_JA;
	if ((cp >= 0x2e80 && cp <= 0x303f) || (cp >= 0x3190 && cp <= 0x319f) ||
	    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
	    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
	    (cp >= 0xff00 && cp <= 0xffef))
		return FONT_LANG_ZH;
	return FONT_LANG_NONE;
}

int font_entry_has(font_chain_t *c, int k, int style, uint32_t cp)
{
	const font_entry_t *en = &c->ent[k];
	if (en->ncov) {   /* covers: never looked up for other characters */
		int in = 0;
		for (int i = 0; i < en->ncov && !in; i++)
			in = cp >= en->cov[i][0] && cp <= en->cov[i][1];
		if (!in)
			return 0;
	}
	if (c->ent[k].pending)
		font_chain_resolve(c, k);   /* the first character to fall through */
	font_face_t *f = c->ent[k].face[style];
	if (!f || font_face_use(c->lib, f) < 0)
		return 0;
	return font_face_gid(f, cp) != 0;   /* shaping asks it again */
}

/* Chain entry that draws cp, or -1 (chain_pick asks when it has no answer
 * cached for an ASCII cp). Cached per (cp, language, style). An entry is
 * looked up (font_chain.c) when a character first gets to it.
 * CJK characters try the entries in the CJK order of their language (the
 * text's, or the one their script implies: Hangul is Korean, kana is
 * Japanese, Han with no CJK language is Chinese). Other characters
 * (Latin, symbols, arrows) try the untagged entries first: a CJK font's
 * Latin letters and symbols are not the ones the chain means for them. */
static int pick_slow(font_chain_t *c, int style, int li, uint32_t cp)
{
	if (cp < 0x80) {
		int r = -1;
		const int *o = c->order[0][li];
		for (int i = 0; i < c->nent && r < 0; i++)
			if (font_entry_has(c, o[i], style, cp))
				r = o[i];
		c->ascii[style][li][cp] = (int8_t)(r + 2);
		return r;
	}
	int sl = font_script_lang(cp), set = sl != FONT_LANG_NONE;
	if (sl == FONT_LANG_KO || sl == FONT_LANG_JA || (sl == FONT_LANG_ZH && li == FONT_LANG_NONE))
		li = sl;
	/* cp: 21 bits, li: 3 (FONT_NLANG 5), style: 3 */
	uint32_t key = (cp << 6 | (uint32_t)li << 3 | (uint32_t)style) + 1;
	uint32_t h = (key * 2654435761u) >> 20;
	if (c->ckey[h] == key)
		return c->cval[h];
	int r = -1;
	const int *o = c->order[set][li];
	for (int i = 0; i < c->nent && r < 0; i++)
		if (font_entry_has(c, o[i], style, cp))
			r = o[i];
	c->ckey[h] = key;
	c->cval[h] = (int16_t)r;
	return r;
}

/* ASCII, most of a CV's characters, from a table of its own. */
static inline int chain_pick(font_chain_t *c, int style, int li, uint32_t cp)
{
	if (cp < 0x80 && c->ascii[style][li][cp])
		return c->ascii[style][li][cp] - 2;
	return pick_slow(c, style, li, cp);
}

int font_style_ok(int style)
{
	if (style < 0 || style > 7)
		return 0;
	if ((style & FONT_LIGHT) && !(style & FONT_BOLD))
		return style & FONT_ITALIC ? FONT_S_LIGHT_ITALIC : FONT_S_LIGHT;
	return style & 3;
}

int font_style_real(font_chain_t *c, int style)
{
	int s = font_style_ok(style);
	if (c->nent <= 0 || !c->ent[0].face[s])
		return 0;
	if (s == FONT_S_LIGHT)
		return c->ent[0].face[s] != c->ent[0].face[FONT_REGULAR];
	if (s == FONT_S_LIGHT_ITALIC)
		return c->ent[0].face[s] != c->ent[0].face[FONT_ITALIC];
	return !c->ent[0].synth[s];
}

int font_chain_entry_for(font_chain_t *c, int style, int li, uint32_t cp)
{
	return chain_pick(c, font_style_ok(style), li, cp);
}

/* Chain entry for a quote or ellipsis set in Chinese or Japanese text (li
 * FONT_LANG_ZH, _ZH_HANT or _JA): the faces tagged for li first, for their
 * full-width forms (clreq 3.1, jlreq 3.1), else the usual choice; not
 * cached (few such characters). */
int font_chain_entry_cjk(font_chain_t *c, int style, int li, uint32_t cp)
{
	style = font_style_ok(style);
	for (int k = 0; k < c->nent; k++)
		if ((c->ent[k].langs & (1u << li)) && font_entry_has(c, k, style, cp))
			return k;
	return chain_pick(c, style, li, cp);
}

/* The entry of emoji presentation (presentation: emoji) that has cp,
 * whatever its covers say: cp is followed by U+FE0F, which asks for its
 * emoji style (✉️, ☎️, a keycap's digit); -1 when none has it. Not
 * cached (few such characters). */
int font_chain_entry_emoji(font_chain_t *c, int style, uint32_t cp)
{
	style = font_style_ok(style);
	for (int k = 0; k < c->nent; k++) {
		font_entry_t *en = &c->ent[k];
		if (!en->emoji)
			continue;
		if (en->pending)
			font_chain_resolve(c, k);
		font_face_t *f = en->face[style];
		if (f && font_face_use(c->lib, f) >= 0 && font_face_gid(f, cp))
			return k;
	}
	return -1;
}

int font_emoji_has(font_chain_t *c, int style, uint32_t cp)
{
	return font_chain_entry_emoji(c, style, cp) >= 0;
}

int font_face_for(font_chain_t *c, int style, const char *lang, uint32_t cp)
{
	style = font_style_ok(style);
	int k = chain_pick(c, style, font_lang_index(lang), cp);
	return k < 0 ? -1 : c->ent[k].face[style]->id;
}

int font_face_synth(font_chain_t *c, int style, int face)
{
	style = font_style_ok(style);
	for (int k = 0; k < c->nent; k++)
		if (c->ent[k].face[style] && c->ent[k].face[style]->id == face)
			return c->ent[k].synth[style];
	return 0;
}
