#!/usr/bin/env python3
"""Generates gateway/src/filings/facets.rs from FinCEN's XSDs.

Usage: fincen-facets.py [generate|check]

  generate  writes gateway/src/filings/facets.rs
  check     fails when the committed file differs from a fresh generation

The table holds, for EFL_SARXBatchSchema.xsd and EFL_CTRXBatchSchema.xsd
(v1.2, committed in conformance/data/fincen-bsa-xml-1.2), every simple type
an element or attribute is declared with, its facets (patterns, lengths,
totalDigits, ranges, enumerations) and which element and attribute takes
which type, and the elements' fixed values; `check.rs` holds each value of a drafted batch to them. The
patterns are translated from XSD's regular expressions into the `regex`
crate's, anchored (an XSD pattern matches the whole value), `\S` read as
Unicode's (the stricter of XSD's and python3-xmlschema's readings). Anything this
reader does not know (a facet, a construct, an escape, an element declared
with two types) stops it: it never writes a table that checks less than the
schema says. The XSDs' sha256 are written into the table too; a unit test
recomputes them, so an XSD changed without regenerating fails the tests.
Python 3 standard library only.
"""

import hashlib
import pathlib
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "conformance" / "data" / "fincen-bsa-xml-1.2"
OUT = ROOT / "gateway" / "src" / "filings" / "facets.rs"
XSD = "{http://www.w3.org/2001/XMLSchema}"
SCHEMAS = [("SARX", "EFL_SARXBatchSchema.xsd"), ("CTRX", "EFL_CTRXBatchSchema.xsd")]
BUILTINS = {"xsd:string": "String", "xsd:int": "Int", "xsd:long": "Long", "xsd:decimal": "Decimal"}
FACETS = {"pattern", "enumeration", "maxLength", "minLength", "length", "totalDigits", "fractionDigits",
          "minInclusive", "maxInclusive", "minExclusive", "maxExclusive"}
# elements and attributes whose type is complex (declared inline or named complexType) are walked, not checked
IGNORED = {"annotation", "documentation"}


def die(message):
    sys.exit(f"fincen-facets: {message}")


def rust_pattern(xsd):
    """An XSD regular expression as an anchored `regex` one; only the constructs FinCEN uses."""
    out, i, in_class = [], 0, False
    while i < len(xsd):
        c = xsd[i]
        if c == "\\":
            e = xsd[i + 1] if i + 1 < len(xsd) else die(f"pattern {xsd!r} ends with a backslash")
            if e in "nrt":
                out.append("\\" + e)
            elif e in "\\|.-^?*+{}()[]":
                out.append("\\" + e)
            elif e == "S" and not in_class:
                # XSD's \s is space, tab, line feed and carriage return; the XSD step's processor
                # (python3-xmlschema) reads Unicode's white space (no-break space, U+0085 …): the
                # stricter of the two, Unicode's \S, so that no value passes here that it refuses
                out.append("\\S")
            elif e == "d":
                out.append("\\p{Nd}")
            else:
                die(f"pattern {xsd!r}: the escape \\{e} is not translated")
            i += 2
            continue
        if c == "[":
            if in_class:
                die(f"pattern {xsd!r}: class subtraction or nesting is not translated")
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "." and not in_class:
            die(f"pattern {xsd!r}: '.' is not translated")
        elif c in "^$&~" and not in_class:
            out.append("\\" + c)  # no anchors in XSD: ordinary characters
            i += 1
            continue
        out.append(c)
        i += 1
    if in_class:
        die(f"pattern {xsd!r}: an unclosed class")
    return "^(?:" + "".join(out) + ")$"


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read(path):
    root = ET.parse(path).getroot()
    types = {}
    for st in root.iter(XSD + "simpleType"):
        name = st.get("name") or die(f"{path.name}: an anonymous simpleType is not read")
        kids = [k for k in st if k.tag[len(XSD):] not in IGNORED]
        if len(kids) != 1 or kids[0].tag != XSD + "restriction":
            die(f"{path.name}: {name} is not a restriction")
        r = kids[0]
        base = r.get("base")
        if base not in BUILTINS:
            die(f"{path.name}: {name} restricts {base}, not a built-in type this reader knows")
        facets = {"base": BUILTINS[base], "patterns": [], "enumeration": []}
        for f in r:
            tag = f.tag[len(XSD):]
            if tag in IGNORED:
                continue
            if tag not in FACETS:
                die(f"{path.name}: {name} has the facet {tag}, which this reader does not know")
            value = f.get("value")
            if tag == "pattern":
                facets["patterns"].append((value, rust_pattern(value)))
            elif tag == "enumeration":
                facets["enumeration"].append(value)
            elif tag in facets:
                die(f"{path.name}: {name} declares {tag} twice")
            else:
                facets[tag] = value
        types[name] = facets
    declared = {"element": {}, "attribute": {}}
    fixed = {}
    for kind in declared:
        for d in root.iter(XSD + kind):
            name = d.get("name")
            if name is None:
                continue  # a reference: declared elsewhere
            if d.get("default") is not None or (kind == "attribute" and d.get("fixed") is not None):
                die(f"{path.name}: {kind} {name} has a value constraint this reader does not know")
            if d.get("fixed") is not None:
                if fixed.get(name, d.get("fixed")) != d.get("fixed"):
                    die(f"{path.name}: element {name} is fixed to two values")
                fixed[name] = d.get("fixed")
            typ = d.get("type")
            if typ is None:
                if any(k.tag == XSD + "simpleType" for k in d):
                    die(f"{path.name}: {kind} {name} declares its simple type inline")
                continue  # an inline complex type
            if typ in BUILTINS:
                types.setdefault(typ, {"base": BUILTINS[typ], "patterns": [], "enumeration": []})
            elif typ not in types:
                if any(c.get("name") == typ for c in root.iter(XSD + "complexType")):
                    continue
                die(f"{path.name}: {kind} {name} has the unknown type {typ}")
            if declared[kind].get(name, typ) != typ:
                die(f"{path.name}: {kind} {name} is declared with two types")
            declared[kind][name] = typ
    used = set(declared["element"].values()) | set(declared["attribute"].values())
    return {k: v for k, v in types.items() if k in used}, declared, fixed


def option(value, rust=str):
    return "None" if value is None else f"Some({rust(value)})"


def generate():
    lines = [
        "//! FinCEN's simple types and their facets, generated by `scripts/fincen-facets.py`",
        "//! from the XSDs in `conformance/data/fincen-bsa-xml-1.2`: do not edit by hand",
        "//! (`scripts/fincen-facets.py generate`; the test command runs its `check`).",
        "",
        "use super::check::{Base, Schema, SimpleType};",
        "",
    ]
    for form, file in SCHEMAS:
        path = DATA / file
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        types, declared, fixed = read(path)
        lines.append(f"/// `{file}` (form `{form}`).")
        lines.append(f"pub(crate) const {form}: Schema = Schema {{")
        lines.append(f"    file: {rust_str(file)},")
        lines.append(f"    sha256: {rust_str(digest)},")
        lines.append("    types: &[")
        for name in sorted(types):
            t = types[name]
            lines.append("        SimpleType {")
            lines.append(f"            name: {rust_str(name)},")
            lines.append(f"            base: Base::{t['base']},")
            for facet, field in [("length", "length"), ("minLength", "min_length"), ("maxLength", "max_length")]:
                lines.append(f"            {field}: {option(t.get(facet), lambda v: str(int(v)))},")
            lines.append(f"            total_digits: {option(t.get('totalDigits'), lambda v: str(int(v)))},")
            lines.append(f"            fraction_digits: {option(t.get('fractionDigits'), lambda v: str(int(v)))},")
            for facet, field in [("minInclusive", "min_inclusive"), ("maxInclusive", "max_inclusive"),
                                 ("minExclusive", "min_exclusive"), ("maxExclusive", "max_exclusive")]:
                lines.append(f"            {field}: {option(t.get(facet), rust_str)},")
            patterns = ", ".join(f"({rust_str(x)}, {rust_str(r)})" for x, r in t["patterns"])
            lines.append(f"            patterns: &[{patterns}],")
            enumeration = ", ".join(rust_str(v) for v in t["enumeration"])
            lines.append(f"            enumeration: &[{enumeration}],")
            lines.append("        },")
        lines.append("    ],")
        for kind in ("element", "attribute"):
            lines.append(f"    {kind}s: &[")
            for name in sorted(declared[kind]):
                lines.append(f"        ({rust_str(name)}, {rust_str(declared[kind][name])}),")
            lines.append("    ],")
        lines.append("    fixed: &[")
        for name in sorted(fixed):
            lines.append(f"        ({rust_str(name)}, {rust_str(fixed[name])}),")
        lines.append("    ],")
        lines.append("};")
        lines.append("")
    return "\n".join(lines)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "generate"
    text = generate()
    if mode == "generate":
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)}")
    elif mode == "check":
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            sys.exit(f"{OUT.relative_to(ROOT)} differs from what the XSDs generate; run: scripts/fincen-facets.py generate")
        print(f"{OUT.relative_to(ROOT)} is what the XSDs generate")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
