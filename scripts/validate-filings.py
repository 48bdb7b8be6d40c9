#!/usr/bin/env python3
"""Validates the regulator filings the gateway drafted against the authorities' schemas.

Usage: validate-filings.py DIR

Every `*.xml` in DIR must be valid, every `*.invalid.xml` (a corrupted twin)
must be refused: a validator that accepts everything fails this script.
A draft with a `NAME.verdict.json` beside it (the randomised drafts of
`randomised_drafts_agree_with_the_schema`) carries the gateway's verdict
instead: its `schema_valid` (the Rust checks of the facets the XSD
declares and of XML 1.0's characters) must be the XSD processor's verdict,
either way, and a draft the gateway calls `valid` must pass the XSD. The
gateway may refuse more for rules no XSD expresses (a missing field, the
user guides' rules), so `valid: false` alone with the XSD accepting is no
disagreement. At least 300 must be there, both verdicts among them.
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

import json
import os
import re
import tempfile
import pathlib
import sys

import xmlschema

# the randomised drafts (with a verdict) a run must hold: filings::tests::randomised_drafts_agree_with_the_schema writes 500
RANDOMISED = 300
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


def errors_of(schema, path):
    """The XSD processor's reasons for refusing a document; a document that is not well-formed XML is refused."""
    try:
        return [f"{e.reason} at {e.path}" for e in schema.iter_errors(str(path))]
    except Exception as e:  # the parser's error for a document that is not well-formed
        return [f"not well-formed XML: {e}"]


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
    judged = {"accepted by both": 0, "refused by both": 0, "refused by the gateway alone, for rules no XSD expresses": 0}
    for path in files:
        if path.name.startswith("goaml") and "goaml" not in schemas:
            print(f"skip {path.name}: no goAML schema (CGW_GOAML_XSD)")
            continue
        kind = next((k for k in schemas if path.name.startswith(k)), None)
        if kind is None:
            print(f"FAIL {path.name}: no schema for this name")
            failures += 1
            continue
        errors = errors_of(schemas[kind], path)
        verdict_path = path.with_name(path.name[: -len(".xml")] + ".verdict.json")
        if verdict_path.exists():
            verdict = json.loads(verdict_path.read_text(encoding="utf-8"))
            rust = "accepts" if verdict["schema_valid"] else "refuses"
            xsd = "refuses" if errors else "accepts"
            if verdict["schema_valid"] == bool(errors) or (verdict["valid"] and errors):
                first = errors[0] if errors else "none"
                rust_first = (verdict["schema_errors"] or [{}])[0]
                print(f"FAIL {path.name}: the gateway {rust} it (valid: {verdict['valid']}; {rust_first}), the {kind} schema {xsd} it (first: {first})")
                failures += 1
            elif errors:
                judged["refused by both"] += 1
            elif verdict["valid"]:
                judged["accepted by both"] += 1
            else:
                judged["refused by the gateway alone, for rules no XSD expresses"] += 1
            continue
        expect_invalid = path.name.endswith(".invalid.xml")
        seen["invalid" if expect_invalid else "valid"] += 1
        if expect_invalid and not errors:
            print(f"FAIL {path.name}: a corrupted twin passed the {kind} schema")
            failures += 1
        elif not expect_invalid and errors:
            print(f"FAIL {path.name}: {len(errors)} error(s) against the {kind} schema; first: {errors[0]}")
            failures += 1
        else:
            what = f"refused ({errors[0]})" if expect_invalid else "valid"
            print(f"ok   {path.name}: {what}")
    print("randomised drafts, the gateway's verdict against the XSD processor's: " + ", ".join(f"{n} {what}" for what, n in judged.items()))
    if sum(judged.values()) < RANDOMISED or not judged["accepted by both"] or not judged["refused by both"]:
        print(f"FAIL: need at least {RANDOMISED} randomised drafts with their verdicts, both verdicts among them")
        failures += 1
    if not seen["valid"] or not seen["invalid"]:
        print(f"FAIL: need both drafts and corrupted twins, got {seen}")
        failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
