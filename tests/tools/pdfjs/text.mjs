// text.mjs OUTDIR FILE...: pdf.js's text of each PDF (getTextContent, every
// item's string, a new line where pdf.js says an item ends one) into
// OUTDIR/NAME.pjtxt, one process for all. Used by ../outs.sh, so that a
// change in what pdf.js extracts (RTL runs, ActualText) shows beside
// pdftotext's and MuPDF's.
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const [out, ...files] = process.argv.slice(2);
console.log = () => {};
console.warn = () => {};
for (const file of files) {
	let text = "";
	try {
		const data = new Uint8Array(readFileSync(file));
		const doc = await getDocument({ data, verbosity: VerbosityLevel.ERRORS,
		                                isEvalSupported: false, disableFontFace: true }).promise;
		for (let i = 1; i <= doc.numPages; i++) {
			const page = await doc.getPage(i);
			const tc = await page.getTextContent();
			for (const it of tc.items)
				if (it.str !== undefined)
					text += it.str + (it.hasEOL ? "\n" : "");
			text += "\n\f\n";
		}
		await doc.destroy();
	} catch (e) {
		text += `pdf.js: ${e && e.message ? e.message : String(e)}\n`;
	}
	writeFileSync(`${out}/${basename(file, ".pdf")}.pjtxt`, text);
}
