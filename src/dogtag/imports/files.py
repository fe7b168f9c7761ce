"""Reading a roll file as it streams: what kind of file it is, which encoding its text is in,
and its rows one at a time, so a file of any size is read in constant memory.

A CSV file's encoding is asked (the clerk names it) or found: a byte-order mark says UTF-8 or
UTF-16; otherwise text that is valid UTF-8 is UTF-8, and anything else is read as Windows-1252
(what Excel writes on a US Windows machine). Every refusal names the line."""

import codecs
import csv
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time

# A roll's line holds one dog's owner, animal, certificate and license: a few hundred characters.
# A line or a cell beyond these is not a roll (a 200 MB cell is refused at its line, not read).
MAX_LINE = 64 * 1024
MAX_CELL = 4 * 1024
CHUNK = 64 * 1024
# An Excel workbook is a zip; its sheets are read as they stream, but openpyxl keeps the shared
# strings table whole, so a workbook whose parts unpack beyond this is refused before reading.
MAX_UNPACKED = 200 * 1024 * 1024

ENCODINGS = {
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8 with a byte-order mark",
    "utf-16": "UTF-16",
    "utf-16-le": "UTF-16 (little-endian, no byte-order mark)",
    "utf-16-be": "UTF-16 (big-endian, no byte-order mark)",
    "cp1252": "Windows-1252",
}
# What a file that is not a roll starts with, and what to call it.
NOT_A_ROLL = (
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\xd0\xcf\x11\xe0", "an old Excel (.xls) or Word file (save it as .xlsx or CSV)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\x7fELF", "a program"),
    (b"MZ", "a program"),
)
LINE_END = re.compile(r"\r\n|\r|\n")
NUMBER_LIKE = re.compile(r"[+-][\d\s().-]*")  # "+1 608 555 0100", "-5.00": not formulas
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class RollError(Exception):
    """The file or mapping cannot be read at all (not one bad row)."""


@dataclass
class Table:
    """A roll being read: its kind, encoding, header, and a generator of (line, cells)."""

    name: str
    kind: str  # "csv" or "xlsx"
    encoding: str  # a key of ENCODINGS, or "" for a workbook
    header: list
    rows: object

    @property
    def read_as(self) -> str:
        return ENCODINGS.get(self.encoding, "an Excel workbook")


def open_table(path, name: str, encoding: str = "") -> Table:
    """The roll at `path` (uploaded as `name`), opened to read row by row."""
    with open(path, "rb") as f:
        start = f.read(CHUNK)
    if not start.strip():
        raise RollError(f"{name} is empty: no header line and no rows.")
    if start.startswith(b"PK\x03\x04"):
        return _workbook(path, name)
    for magic, what in NOT_A_ROLL:
        if start.startswith(magic):
            raise RollError(f"{name} is {what}, not a roll: upload a CSV file or an Excel .xlsx workbook.")
    encoding = _encoding(name, start, encoding)
    rows = _csv_rows(path, name, encoding)
    header = next(rows, None)
    if header is None:
        raise RollError(f"{name} is empty: no header line and no rows.")
    return Table(name, "csv", encoding, [h.strip() for h in header[1]], rows)


def _encoding(name, start: bytes, asked: str) -> str:
    if asked:
        try:
            codecs.lookup(asked)
        except LookupError:
            raise RollError(f"{asked!r} is not an encoding; choose one of {', '.join(ENCODINGS.values())}.") from None
        return asked
    if start.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise RollError(f"{name} is UTF-32 text, which Dogtag does not read; save it as UTF-8 (or UTF-16).")
    if start.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = start[: len(start) & ~1]
    if sample and b"\x00" in sample:
        # UTF-16 without a mark: a roll's text is mostly ASCII, so every other byte is zero.
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        if odd > len(sample) // 4 and even == 0:
            return "utf-16-le"
        if even > len(sample) // 4 and odd == 0:
            return "utf-16-be"
        line = start[: start.index(b"\x00")].count(b"\n") + 1
        raise RollError(f"{name} is not a text file: line {line} holds a NUL byte (binary content).")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(start, final=len(start) < CHUNK)
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


def _lines(path, name, encoding):
    """The file's lines as text, ends kept (so csv sees quoted line breaks), each at most MAX_LINE
    characters; a byte the encoding cannot read is refused at its line."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    pending, number = "", 1
    with open(path, "rb") as f:
        while True:
            chunk = f.read(CHUNK)
            try:
                pending += decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as e:
                before = e.object[: e.start].decode(encoding, "replace")
                line = number + len(LINE_END.findall(pending + before))
                bad = e.object[e.start : e.start + 1].hex()
                raise RollError(
                    f"{name}, line {line}: byte 0x{bad} is not {ENCODINGS.get(encoding, encoding)} text; "
                    f"the file was read as {ENCODINGS.get(encoding, encoding)}. Choose the file's encoding "
                    f"({', '.join(ENCODINGS.values())}) or save it again as UTF-8."
                ) from None
            end = 0
            for m in LINE_END.finditer(pending):
                if chunk and m.end() == len(pending) and m.group() == "\r":
                    break  # the \n of a \r\n may be in the next chunk
                if m.end() - end > MAX_LINE:
                    break
                yield pending[end : m.end()]
                end = m.end()
                number += 1
            pending = pending[end:]
            if len(pending) > MAX_LINE:
                raise RollError(
                    f"{name}, line {number} is longer than {MAX_LINE:,} characters; a roll has one dog to a line. "
                    "Nothing was imported."
                )
            if not chunk:
                if pending:
                    yield pending
                return


def _csv_rows(path, name, encoding):
    reader = csv.reader(_lines(path, name, encoding))
    line = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise RollError(f"{name}, line {reader.line_num}: {e}. Nothing was imported.") from None
        yield line, cells
        line = reader.line_num + 1


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _workbook(path, name) -> Table:
    import openpyxl

    try:
        with zipfile.ZipFile(path) as z:
            unpacked = sum(i.file_size for i in z.infolist())
            if "xl/workbook.xml" not in z.namelist():
                raise RollError(f"{name} is a zip archive, not an Excel .xlsx workbook.")
    except zipfile.BadZipFile as e:
        raise RollError(f"{name} is not a readable Excel workbook (the file is damaged or cut short: {e}).") from None
    if unpacked > MAX_UNPACKED:
        raise RollError(f"{name} unpacks to {unpacked:,} bytes; a roll workbook is under {MAX_UNPACKED:,}.")
    try:
        # Formulas are read as written ("=..."), so a formula cell is refused rather than its
        # cached result imported as if a clerk had typed it.
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
        sheet = book.worksheets[0]
        rows = sheet.iter_rows(values_only=True)
        header = [_cell(c).strip() for c in next(rows, ())]
    except RollError:
        raise
    except Exception as e:  # openpyxl raises many kinds for a workbook it cannot read
        raise RollError(f"{name} is not a readable Excel workbook: {e}") from None

    def body():
        try:
            for line, row in enumerate(rows, start=2):
                yield line, [_cell(c) for c in row]
        except Exception as e:
            raise RollError(f"{name}, row {line + 1}: the workbook cannot be read further ({e}).") from None
        finally:
            book.close()

    return Table(name, "xlsx", "", header, body())


def cell_problem(value: str) -> str | None:
    """Why a cell cannot be imported whatever its column, or None."""
    if len(value) > MAX_CELL:
        return f"at most {MAX_CELL:,} characters in a cell (this one has {len(value):,})"
    if CONTROL.search(value):
        return "no control characters (NUL, escape, ...) in text"
    if value[:1] in ("=", "@") or (value[:1] in ("+", "-") and not NUMBER_LIKE.fullmatch(value)):
        return "a value, not a spreadsheet formula (a cell starting with = + - @)"
    return None
