// check.mjs FILE...: open every PDF with pdf.js (one process for all), read
// each page's operators (fonts, glyphs, images are parsed on the way) and
// text; print "FILE: pdf.js: MESSAGE" for every warning or error and exit
// 1 if there was any. Used by ../pdf_check.sh.
import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";
import { readFileSync } from "node:fs";

let current = "";
let bad = 0;
const say = (...a) => {
	bad++;
	console.error(`${current}: pdf.js: ${a.join(" ")}`);
};
// pdf.js reports through console.log ("Warning: ...") and console.error
console.log = say;
console.warn = say;
const error = console.error;
console.error = (...a) => (String(a[0]).startsWith(current + ": ") ? error(...a) : say(...a));

for (const file of process.argv.slice(2)) {
	current = file;
	try {
		const data = new Uint8Array(readFileSync(file));
		const doc = await getDocument({ data, verbosity: VerbosityLevel.WARNINGS, stopAtErrors: true,
		                                isEvalSupported: false, disableFontFace: true }).promise;
		for (let i = 1; i <= doc.numPages; i++) {
			const page = await doc.getPage(i);
			await page.getOperatorList();
			await page.getTextContent();
		}
		await doc.destroy();
	} catch (e) {
		say(e && e.message ? e.message : String(e));
	}
}
process.exit(bad ? 1 : 0);
