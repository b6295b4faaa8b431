#!/usr/bin/env python3
"""The profile schema (docs/vita.schema.json) against the loader and the docs.

  schema_check.py SCHEMA VALID... --invalid INVALID...

Checks that every VALID profile validates and every INVALID one does not,
that every key in the loader's key tables (src/profile*.c) is a property
somewhere in the schema and every property is one the loader knows, and
that docs/profile.md names every property. Needs python3-jsonschema and
python3-yaml. Exit 1 with a list of what is wrong."""
import glob
import json
import re
import sys

import jsonschema
import yaml


class Loader(yaml.SafeLoader):
    """YAML as yaml-language-server sees it: 2024-01-01 stays a string."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def properties(node, out):
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            out.add(k)
        for v in node.values():
            properties(v, out)
    elif isinstance(node, list):
        for v in node:
            properties(v, out)
    return out


def loader_keys():
    """Every string in the loader's key tables (static const char *const x[])."""
    keys = set()
    for path in glob.glob("src/profile.c") + glob.glob("src/profile_val.c"):
        src = open(path, encoding="utf-8").read()
        for m in re.finditer(r"const char \*const (\w+)\[\](?:\[\d+\])? = \{(.*?)\};", src, re.S):
            name, body = m.group(1), m.group(2)
            if name in ("schema",) or "names" in name or name == "sec_types":
                continue  # pv_misspelt's list; enumeration values, not keys
            keys.update(re.findall(r'"([a-z_]+)"', body))
    return keys


def main():
    args = sys.argv[1:]
    cut = args.index("--invalid") if "--invalid" in args else len(args)
    schema_path, valid, invalid = args[0], args[1:cut], args[cut + 1:]
    schema = json.load(open(schema_path, encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    v = jsonschema.Draft7Validator(schema)
    bad = []
    for f in valid:
        doc = yaml.load(open(f, encoding="utf-8"), Loader=Loader)
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
        for e in errs[:3]:
            bad.append(f"{f}: valid for vita but not for the schema: "
                       f"{'/'.join(map(str, e.path))}: {e.message[:200]}")
    for f in invalid:
        doc = yaml.load(open(f, encoding="utf-8"), Loader=Loader)
        if v.is_valid(doc):
            bad.append(f"{f}: refused by vita but valid for the schema")
    props = properties(schema, set())
    lk = loader_keys()
    for k in sorted(lk - props):
        bad.append(f"loader key '{k}' is not in the schema")
    for k in sorted(props - lk):
        bad.append(f"schema property '{k}' is not a loader key")
    doc = open("docs/profile.md", encoding="utf-8").read()
    for k in sorted(props):
        if f"`{k}`" not in doc:
            bad.append(f"docs/profile.md does not document `{k}`")
    for b in bad:
        print(b)
    print(f"schema: {len(valid)} valid, {len(invalid)} invalid profiles, "
          f"{len(props)} keys; {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
