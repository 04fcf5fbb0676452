#!/usr/bin/env python3
"""Validate clawnet's JSON output against the schemas in docs/schemas, with python-jsonschema
(an implementation independent of clawnet's encoder).

    validate_schema.py [--strict] [--lines] SCHEMA FILE|-
    validate_schema.py --check-schemas

SCHEMA is a schema's title (clawnet.doctor.v1) or file name. --lines validates every line of
the input on its own (browse --format jsonl). --strict also rejects properties a schema does
not name: the published schemas let readers ignore fields added later within a version, the
tests use --strict so that every field clawnet prints is documented. --check-schemas checks
every schema against the JSON Schema 2020-12 metaschema. Prints every error with its path
and exits 1 when there is one.
"""
import argparse
import copy
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

SCHEMAS = pathlib.Path(__file__).resolve().parent.parent.parent / "docs" / "schemas"


def load_schemas(strict):
    schemas = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        schemas[path.name] = close_objects(copy.deepcopy(schema)) if strict else schema
    return schemas


def close_objects(node):
    """Every object schema that names its properties admits no others (unevaluatedProperties
    also sees properties named through $ref, allOf and oneOf)."""
    if isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node and "unevaluatedProperties" not in node:
            node["unevaluatedProperties"] = False
        for value in node.values():
            close_objects(value)
    elif isinstance(node, list):
        for value in node:
            close_objects(value)
    return node


def find(schemas, name):
    for file_name, schema in schemas.items():
        if name in (file_name, schema.get("title")):
            return schema
    sys.exit(f"validate_schema: no schema {name!r} in {SCHEMAS} (have: {', '.join(s.get('title', '') for s in schemas.values())})")


def errors(validator, document, label):
    found = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
        for leaf in closest(error):
            path = "/".join(str(part) for part in leaf.absolute_path) or "(root)"
            message = leaf.message if len(leaf.message) <= 300 else leaf.message[:300] + "..."
            found.append(f"{label}{path}: {message}")
    return found


def closest(error):
    """"Not valid under any of the given schemas" says little: the errors of the oneOf branch
    that came closest instead (every one of them), down to the leaves."""
    if not error.context:
        return [error]
    branch = best_match(error.context).relative_schema_path[0]
    return [leaf for inner in error.context if inner.relative_schema_path[0] == branch for leaf in closest(inner)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--lines", action="store_true")
    parser.add_argument("--check-schemas", action="store_true")
    parser.add_argument("schema", nargs="?")
    parser.add_argument("input", nargs="?", default="-")
    arguments = parser.parse_args()

    schemas = load_schemas(arguments.strict)
    registry = Registry().with_resources((name, Resource.from_contents(schema)) for name, schema in schemas.items())
    problems = []
    if arguments.check_schemas:
        for name, schema in schemas.items():
            problems += errors(Draft202012Validator(Draft202012Validator.META_SCHEMA), schema, f"{name}: ")
            if schema.get("$id") != name or not schema.get("title", "").startswith("clawnet."):
                problems.append(f"{name}: $id must be the file name and title the schema's name")
    else:
        if not arguments.schema:
            parser.error("give a SCHEMA (or --check-schemas)")
        validator = Draft202012Validator(find(schemas, arguments.schema), registry=registry)
        text = sys.stdin.read() if arguments.input == "-" else pathlib.Path(arguments.input).read_text(encoding="utf-8")
        documents = [(f"line {n}: ", line) for n, line in enumerate(text.splitlines(), 1) if line.strip()] if arguments.lines else [("", text)]
        if not documents:
            problems.append("no JSON in the input")
        for label, raw in documents:
            try:
                document = json.loads(raw)
            except json.JSONDecodeError as error:
                problems.append(f"{label}not JSON: {error}")
                continue
            problems += errors(validator, document, label)
    for problem in problems:
        print(problem)
    if not problems:
        print("valid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
