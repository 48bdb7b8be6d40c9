#!/usr/bin/env python3
"""Writes romanized-names.tsv: the outside set of common romanized names of
the match-quality bench (issue #29), not from this project's own lists and
not from any sanctions list:

- given names, with how common each is: Joerg Michael's name dictionary
  `nam_dict.txt` as shipped in PyPI `gender-guesser` 0.4.0 (the data under
  the GNU Free Documentation License), the names of frequency 5 or more
  (on its scale of 1 to 13, each step about twice as common) in its
  columns Arabia/Persia, Russia, Turkey, Azerbaijan and Kazakhstan/Uzbekistan;
- surnames: Faker's person providers (PyPI `faker` 40.63.0, MIT licence,
  Copyright (c) 2012 Daniele Faraglia) of the same regions: en_PK (for
  Arabia/Persia: Pakistan's romanized names of Arabic and Persian origin),
  ru_RU (romanized from Cyrillic by PyPI `unidecode` 1.4.0, used only here),
  tr_TR, az_AZ, uz_UZ.

Columns: region, gender (m, f or - for either), part (given or surname),
weight (given names: 2 to the power of the frequency; surnames: 1), name.
Regenerate: pip install faker==40.63.0 unidecode==1.4.0 gender-guesser==0.4.0 && python3 romanized_names.py
"""
import importlib
import os

from unidecode import unidecode

# region: (Faker locale of the surnames, nam_dict column of the given names)
REGIONS = {"AR": ("en_PK", 77), "RU": ("ru_RU", 68), "TR": ("tr_TR", 76), "AZ": ("az_AZ", 73), "UZ": ("uz_UZ", 75)}


def names(provider, attr):
    value = getattr(provider, attr, None)
    if value is None:
        return []
    return list(value.keys()) if isinstance(value, dict) else list(value)


def given_names(column):
    import gender_guesser

    path = os.path.join(os.path.dirname(gender_guesser.__file__), "data", "nam_dict.txt")
    out = []
    for line in open(path, encoding="iso-8859-1"):
        if line.startswith("#") or len(line) <= column:
            continue
        gender, name, frequency = line[:2].strip(), line[3:29].strip(), line[column].strip()
        if not frequency or "+" in name or not name.isascii() or not name.isalpha() or gender not in ("M", "F", "?M", "?F", "?", "1M", "1F"):
            continue
        if int(frequency, 16) >= 5:
            out.append(("m" if gender.endswith("M") else "f" if gender.endswith("F") else "-", name, 2 ** int(frequency, 16)))
    return out


rows = []
for region, (locale, column) in REGIONS.items():
    for gender, name, weight in given_names(column):
        rows.append((region, gender, "given", str(weight), name))
    provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
    latin = (lambda n: unidecode(n)) if locale == "ru_RU" else (lambda n: n)
    sets = []
    if names(provider, "last_names_male"):
        sets += [("m", names(provider, "last_names_male")), ("f", names(provider, "last_names_female"))]
        sets += [("-", names(provider, "last_names_unisex"))]
    else:
        sets += [("-", names(provider, "last_names"))]
    for gender, values in sets:
        seen = set()
        for value in values:
            value = latin(value).strip()
            if value and value not in seen:
                seen.add(value)
                rows.append((region, gender, "surname", "1", value))

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "romanized-names.tsv"), "w", encoding="utf-8") as out:
    out.write("# given names: nam_dict.txt (gender-guesser 0.4.0, GFDL); surnames: Faker 40.63.0 (MIT); see romanized_names.py\n")
    for row in rows:
        out.write("\t".join(row) + "\n")
print(len(rows), "names")
