// structtree.mjs FILE: print the headings pdf.js finds in FILE's structure
// tree, one per line as "H2 Education", in reading order (page by page:
// pdf.js gives each page's part of the tree, getStructTree). A heading's
// text is the text of the marked content it holds (getTextContent with
// marked content). Used by tests/scripts/pdfua.sh to compare with poppler.
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { readFileSync } from "node:fs";

const data = new Uint8Array(readFileSync(process.argv[2]));
const doc = await getDocument({ data, verbosity: VerbosityLevel.ERRORS, isEvalSupported: false,
                                disableFontFace: true }).promise;
for (let i = 1; i <= doc.numPages; i++) {
	const page = await doc.getPage(i);
	const tree = await page.getStructTree();
	// marked-content id -> its text
	const text = new Map();
	const open = [];
	for (const it of (await page.getTextContent({ includeMarkedContent: true })).items) {
		if (it.type === "beginMarkedContentProps" || it.type === "beginMarkedContent")
			open.push(it.id);
		else if (it.type === "endMarkedContent")
			open.pop();
		else if (it.str !== undefined)
			for (const id of open)
				if (id) text.set(id, (text.get(id) || "") + it.str);
	}
	const words = (n) => n.type === "content" ? text.get(n.id) || ""
		: (n.children || []).map(words).join("");
	const walk = (n) => {
		if (/^H[1-6]$/.test(n.role)) {
			console.log(`${n.role} ${words(n).trim()}`);
			return;
		}
		for (const c of n.children || [])
			walk(c);
	};
	if (tree)
		walk(tree);
}
