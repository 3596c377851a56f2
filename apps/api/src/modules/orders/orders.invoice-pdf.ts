import PDFDocument from 'pdfkit';
import type { Readable } from 'node:stream';
import type { InvoiceDocument } from './orders.invoice-document.js';

const MARGIN = 56;
const PAGE_WIDTH = 595.28; // A4
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const AMOUNT_WIDTH = 120;
const MUTED = '#555555';
const RULE = '#cccccc';

/** The characters beyond Latin-1 that the standard PDF fonts' encoding (WinAnsi) has. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text as the built-in Helvetica can draw it: characters outside its encoding lose their accents
 * (`ő` becomes `o`; `Ł` or `東`, `?`) rather than coming out as garbage. Pure.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char)) {
      out += char;
      continue;
    }
    const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    out += [...base].every((c) => c.codePointAt(0)! >= 0x20 && c.codePointAt(0)! <= 0x7e) && base ? base : '?';
  }
  return out;
}

function drawable(invoice: InvoiceDocument): InvoiceDocument {
  const line = (item: { label: string; note: string | null; amount: string }) => ({
    label: toWinAnsi(item.label),
    note: item.note === null ? null : toWinAnsi(item.note),
    amount: toWinAnsi(item.amount),
  });
  return {
    title: toWinAnsi(invoice.title),
    number: toWinAnsi(invoice.number),
    date: toWinAnsi(invoice.date),
    seller: { name: toWinAnsi(invoice.seller.name), lines: invoice.seller.lines.map(toWinAnsi) },
    buyer: { name: toWinAnsi(invoice.buyer.name), lines: invoice.buyer.lines.map(toWinAnsi) },
    items: invoice.items.map(line),
    totals: invoice.totals.map((total) => ({
      ...total,
      label: toWinAnsi(total.label),
      amount: toWinAnsi(total.amount),
    })),
    notes: invoice.notes.map(toWinAnsi),
  };
}

/**
 * Lays an invoice out on A4 pages with pdfkit and returns the PDF as a stream (pdfkit writes it out as
 * it draws; nothing here holds the whole file). The PDF's own dates are the invoice's, so the same
 * order renders the same document.
 */
export function renderInvoicePdf(document: InvoiceDocument, options: { createdAt: Date }): Readable {
  const invoice = drawable(document);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `${invoice.title} ${invoice.number}`,
      Author: invoice.seller.name,
      Subject: `${invoice.title} ${invoice.number}`,
      CreationDate: options.createdAt,
      ModDate: options.createdAt,
    },
  });

  doc.font('Helvetica-Bold').fontSize(22).fillColor('black').text(invoice.title, MARGIN, MARGIN);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED);
  doc.text(`Invoice number: ${invoice.number}`);
  doc.text(`Date of issue: ${invoice.date}`);

  const partiesTop = doc.y + 24;
  const columnWidth = CONTENT_WIDTH / 2 - 12;
  const party = (heading: string, name: string, lines: string[], x: number) => {
    doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED).text(heading.toUpperCase(), x, partiesTop, {
      width: columnWidth,
    });
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('black')
      .text(name, x, doc.y + 4, { width: columnWidth });
    doc.font('Helvetica').fontSize(10);
    for (const line of lines) doc.text(line, x, doc.y, { width: columnWidth });
    return doc.y;
  };
  const sellerBottom = party('From', invoice.seller.name, invoice.seller.lines, MARGIN);
  const buyerBottom = party('Bill to', invoice.buyer.name, invoice.buyer.lines, MARGIN + CONTENT_WIDTH / 2 + 12);

  let y = Math.max(sellerBottom, buyerBottom) + 32;
  const labelWidth = CONTENT_WIDTH - AMOUNT_WIDTH - 12;
  const amountX = MARGIN + CONTENT_WIDTH - AMOUNT_WIDTH;
  const rule = (at: number) => {
    doc
      .moveTo(MARGIN, at)
      .lineTo(MARGIN + CONTENT_WIDTH, at)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  };
  const ensureRoom = (height: number) => {
    if (y + height > doc.page.height - MARGIN) {
      doc.addPage();
      y = MARGIN;
    }
  };

  doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED);
  doc.text('DESCRIPTION', MARGIN, y, { width: labelWidth });
  doc.text('AMOUNT', amountX, y, { width: AMOUNT_WIDTH, align: 'right' });
  y = doc.y + 6;
  rule(y);
  y += 8;

  for (const item of invoice.items) {
    doc.font('Helvetica').fontSize(10);
    const height =
      doc.heightOfString(item.label, { width: labelWidth }) + (item.note ? doc.heightOfString(item.note) : 0);
    ensureRoom(height + 10);
    doc.fillColor('black').text(item.label, MARGIN, y, { width: labelWidth });
    if (item.note) doc.fontSize(8).fillColor(MUTED).text(item.note, MARGIN, doc.y, { width: labelWidth });
    const bottom = doc.y;
    doc.fontSize(10).fillColor('black').text(item.amount, amountX, y, { width: AMOUNT_WIDTH, align: 'right' });
    y = Math.max(bottom, doc.y) + 8;
  }
  rule(y);
  y += 10;

  const totalsLabelX = MARGIN + CONTENT_WIDTH / 2;
  const totalsLabelWidth = CONTENT_WIDTH / 2 - AMOUNT_WIDTH - 12;
  for (const total of invoice.totals) {
    ensureRoom(20);
    doc
      .font(total.emphasis ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(total.emphasis ? 12 : 10)
      .fillColor('black');
    doc.text(total.label, totalsLabelX, y, { width: totalsLabelWidth });
    doc.text(total.amount, amountX, y, { width: AMOUNT_WIDTH, align: 'right' });
    y = doc.y + 6;
  }

  y += 18;
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  for (const note of invoice.notes) {
    ensureRoom(16);
    doc.text(note, MARGIN, y, { width: CONTENT_WIDTH });
    y = doc.y + 4;
  }

  doc.end();
  return doc;
}
