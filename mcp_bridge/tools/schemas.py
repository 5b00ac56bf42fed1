"""The output schemas the tools declare (JSON Schema), written from mcp-contract.md.

They describe the answer's shape without over-promising: fields the contract
names are listed with their types; `required` holds only what every answer
carries. Answers are checked against them by the SDK's client in the tests.
"""

from __future__ import annotations

from typing import Any

from memvault.core.vocabulary.model import Explicitness, MemoryRecord, MemoryType, Scope, Sensitivity, Status

Schema = dict[str, Any]

STR: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
NUM: Schema = {"type": "number"}
BOOL: Schema = {"type": "boolean"}


def nullable(schema: Schema) -> Schema:
    kind = schema["type"]
    return {**schema, "type": [kind, "null"] if isinstance(kind, str) else [*kind, "null"]}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return {"type": "object", "properties": properties, "required": list(required)}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def enum(values: list[str]) -> Schema:
    return {"type": "string", "enum": values}


# The record's fields are declared once, by `MemoryRecord`: each annotation maps to its JSON type,
# and the enumerated fields name their values.
_FIELD_TYPES: dict[str, Schema] = {
    "str": STR,
    "MemoryId": STR,
    "float": NUM,
    "int": INT,
    "list[str]": array(STR),
    "str | None": nullable(STR),
    "MemoryId | None": nullable(STR),
}
_ENUMS: dict[str, Schema] = {
    "type": enum([t.value for t in MemoryType]),
    "status": enum([s.value for s in Status]),
    "explicitness": enum([e.value for e in Explicitness]),
    "sensitivity": enum([s.value for s in Sensitivity]),
    "access_scope": enum([s.value for s in Scope]),
}
RECORD: Schema = obj(
    {
        name: _ENUMS.get(name) or _FIELD_TYPES[getattr(annotation, "__forward_arg__", str(annotation))]
        for name, annotation in MemoryRecord.__annotations__.items()
    },
    ("id", "domain", "type", "statement", "status", "access_scope", "revision"),
)

# A search hit is a record plus its score, why and tier. Its schema names the fields every hit carries
# and types none of them: the official Python client checks every answer against the declared schema,
# one step per typed field of every hit, in series with every search (ten hits with the required fields
# typed: ~1.9 ms on a 2-core AVX2 VM, 0.3 ms with names only). The types are RECORD's (memory_get and
# memory_list declare them) and HIT_FIELDS' below; the tests hold every hit to both.
HIT_FIELDS: Schema = {"score": NUM, "why": array(STR), "tier": enum(["hot", "warm", "cold"])}
HIT: Schema = {
    "type": "object",
    "description": "a record (typed as memory_get's memory) with its score, why and tier",
    "required": [*RECORD["required"], *HIT_FIELDS],
}

# One schema for both answers of memory_search: the full one and, with shadow, {shadow, retrieved, latency_ms}.
SEARCH: Schema = obj(
    {
        "query": STR,
        "skipped": BOOL,
        "reason": nullable(STR),
        "domains": array(obj({"name": STR, "weight": NUM}, ("name", "weight"))),
        "results": array(HIT),
        "packet": STR,
        "budget": obj(
            {"records": INT, "tokens": INT, "latency_ms": NUM, "truncated": BOOL},
            ("records", "tokens", "latency_ms", "truncated"),
        ),
        "shadow": BOOL,
        "retrieved": INT,
        "latency_ms": NUM,
    }
)

GET: Schema = obj(
    {
        "memory": RECORD,
        "history": array(RECORD),
        "links": array(obj({"type": STR, "target_id": STR}, ("type", "target_id"))),
        "entities": array(STR),
    },
    ("memory", "history", "links", "entities"),
)

LIST: Schema = obj({"items": array(RECORD), "next_cursor": nullable(STR)}, ("items", "next_cursor"))

STATUS: Schema = obj(
    {
        "version": STR,
        "contract": INT,
        "store": obj({"encrypted": BOOL, "schema_version": INT}, ("encrypted", "schema_version")),
        "counts": {
            **obj({"by_domain": {"type": "object", "additionalProperties": INT}}, ("by_domain",)),
            "additionalProperties": True,
        },
        "write_mode": STR,
        "kill_switch": enum(["off", "remote", "all"]),
        "embeddings": enum(["local", "off"]),
        "pending_proposals": INT,
    },
    ("version", "contract"),
)
# A store the bridge cannot open yet answers `ready: false` and `not_ready` (what is wrong, the one command
# that fixes it) instead of the store's fields; an open store answers all of them.
STATUS["properties"] |= {
    "ready": BOOL,
    "not_ready": obj({"reason": STR, "message": STR, "command": STR}, ("reason", "message", "command")),
}
STATUS["anyOf"] = [
    {"required": ["store", "counts", "write_mode", "kill_switch", "embeddings", "pending_proposals"]},
    {"required": ["ready", "not_ready"], "properties": {"ready": {"const": False}}},
]

ADD: Schema = obj(
    {
        "outcome": enum(["added", "staged", "duplicate", "rejected"]),
        "id": nullable(STR),
        "proposal_id": nullable(STR),
        "duplicate_of": nullable(STR),
        "reason": nullable(STR),
    },
    ("outcome",),
)

CORRECT: Schema = obj(
    {
        "outcome": enum(["superseded", "staged"]),
        "id": nullable(STR),
        "supersedes_id": nullable(STR),
        "proposal_id": nullable(STR),
    },
    ("outcome",),
)

ARCHIVE: Schema = obj({"outcome": enum(["archived", "staged"]), "id": STR, "proposal_id": nullable(STR)}, ("outcome",))

RESTORE: Schema = obj(
    {"outcome": enum(["restored", "staged"]), "id": STR, "proposal_id": nullable(STR)}, ("outcome", "id")
)

EXPORT: Schema = obj({"files": array(STR), "records": INT}, ("files", "records"))

# -- advanced tools --------------------------------------------------------------------------

RELATED: Schema = obj(
    {
        "nodes": array(RECORD),
        "edges": array(obj({"from": STR, "to": STR, "type": STR, "weight": NUM}, ("from", "to", "type", "weight"))),
    },
    ("nodes", "edges"),
)

TIMELINE: Schema = obj(
    {"events": array(obj({"time": STR, "kind": STR, "record": RECORD}, ("time", "kind", "record")))}, ("events",)
)

PROJECT_HISTORY: Schema = obj(
    {"project": STR, "states": array(RECORD), "decisions": array(RECORD), "unresolved": array(RECORD)},
    ("project", "states", "decisions", "unresolved"),
)

ITEMS: Schema = obj({"items": array(RECORD)}, ("items",))

FEEDBACK: Schema = obj({"ok": BOOL}, ("ok",))

BACKUP: Schema = obj({"path": STR, "encrypted": BOOL, "bytes": INT}, ("path", "encrypted", "bytes"))

PURGE: Schema = obj({"outcome": enum(["confirmation_required"]), "request_id": STR}, ("outcome", "request_id"))

PROPOSE: Schema = obj(
    {
        "results": array(
            obj(
                {
                    "classification": {
                        "type": ["string", "null"],
                        "enum": ["ADD", "SUPERSEDE", "ARCHIVE", "NO_CHANGE", None],
                    },
                    "target_id": nullable(STR),
                    "reason": nullable(STR),
                    "evidence": {"type": ["object", "null"]},
                    "outcome": enum(["added", "staged", "skipped", "rejected"]),
                    "proposal_id": nullable(STR),
                    "id": nullable(STR),
                },
                ("classification", "target_id", "reason", "evidence", "outcome", "proposal_id"),
            )
        )
    },
    ("results",),
)
