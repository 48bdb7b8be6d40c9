#!/usr/bin/env python3
"""Validates the regulator filings the gateway drafted against the authorities' schemas.

Usage: validate-filings.py DIR

Every `*.xml` in DIR must be valid, every `*.invalid.xml` (a corrupted twin)
must be refused: a validator that accepts everything fails this script.
`sar*` files are checked against FinCEN's EFL_SARXBatchSchema.xsd, `ctr*`
against EFL_CTRXBatchSchema.xsd (both v1.2, committed in
`conformance/data/fincen-bsa-xml-1.2`), `goaml*` against an FIU's goAML
schema named by `CGW_GOAML_XSD` (e.g. `goaml-4-fiu-lk`'s
goAMLSchema-Version_2.0.xsd). No goAML schema may be committed (no licence
is published for any), so without `CGW_GOAML_XSD` the goAML drafts are
skipped, each named (docs/decisions.md). Nothing outside the repository is
read unless named. FinCEN's schemas declare `vc:minVersion="1.1"`:
an XSD 1.0 processor honouring schema versioning skips every component of
them and would accept anything, so they are loaded as XSD 1.1 and the
script checks that the root element was loaded.
"""

import os
import re
import tempfile
import pathlib
import sys

import xmlschema

FINCEN = pathlib.Path(__file__).resolve().parent.parent / "conformance" / "data" / "fincen-bsa-xml-1.2"


def anchored_as_meant(path):
    """The goAML fixture writes its patterns as `^[A-Za-z0-9]+$`. XSD
    patterns match the whole value and have no anchors, so an XSD processor
    reads `^` and `$` as characters every value must contain; goAML's own
    (.NET) validator and the FIU's annotation ("must have any of a-z, A-Z,
    0-9") read them as anchors. The anchors are dropped before loading
    (docs/decisions.md); the corrupted twin `goaml-id-number`
    checks that the pattern still bites."""
    text = path.read_text(encoding="utf-8")
    fixed, count = re.subn(r'(<xs:pattern value=")\^([^"]*)\$(")', r"\1\2\3", text)
    if not count:
        return path  # another FIU's variant may write its patterns unanchored
    out = pathlib.Path(tempfile.mkdtemp()) / path.name
    out.write_text(fixed, encoding="utf-8")
    return out


def load(path, cls, root):
    schema = cls(str(path))
    if root not in schema.elements:
        sys.exit(f"{path}: the schema loaded without its root element {root}")
    return schema


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    schemas = {
        "sar": load(FINCEN / "EFL_SARXBatchSchema.xsd", xmlschema.XMLSchema11, "EFilingBatchXML"),
        "ctr": load(FINCEN / "EFL_CTRXBatchSchema.xsd", xmlschema.XMLSchema11, "EFilingBatchXML"),
    }
    goaml = os.environ.get("CGW_GOAML_XSD")
    if goaml:
        schemas["goaml"] = load(anchored_as_meant(pathlib.Path(goaml)), xmlschema.XMLSchema10, "report")
    else:
        print("skip goaml*: no goAML schema is committed (none is licensed for it); set CGW_GOAML_XSD to an FIU's XSD to check them")
    files = sorted(pathlib.Path(sys.argv[1]).glob("*.xml"))
    if not files:
        sys.exit(f"no drafts in {sys.argv[1]}")
    failures = 0
    seen = {"valid": 0, "invalid": 0}
    for path in files:
        if path.name.startswith("goaml") and "goaml" not in schemas:
            print(f"skip {path.name}: no goAML schema (CGW_GOAML_XSD)")
            continue
        kind = next((k for k in schemas if path.name.startswith(k)), None)
        if kind is None:
            print(f"FAIL {path.name}: no schema for this name")
            failures += 1
            continue
        errors = list(schemas[kind].iter_errors(str(path)))
        expect_invalid = path.name.endswith(".invalid.xml")
        seen["invalid" if expect_invalid else "valid"] += 1
        if expect_invalid and not errors:
            print(f"FAIL {path.name}: a corrupted twin passed the {kind} schema")
            failures += 1
        elif not expect_invalid and errors:
            print(f"FAIL {path.name}: {len(errors)} error(s) against the {kind} schema; first: {errors[0].reason} at {errors[0].path}")
            failures += 1
        else:
            what = f"refused ({errors[0].reason})" if expect_invalid else "valid"
            print(f"ok   {path.name}: {what}")
    if not seen["valid"] or not seen["invalid"]:
        print(f"FAIL: need both drafts and corrupted twins, got {seen}")
        failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
