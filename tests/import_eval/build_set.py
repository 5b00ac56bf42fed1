"""Build the import evaluation set: conversations from templates.py filled from fillers.py, split by template.

`.venv/bin/python tests/import_eval/build_set.py` writes `conversations.jsonl` (byte for byte the same each
run). `write_exports(conversations, folder)` writes them as real exports: ChatGPT (`conversations.json`
with `mapping` trees, zipped with `chat.html`, `user.json` and the rest, or unzipped), Claude
(`conversations.json` with `chat_messages`, `users.json`, `projects.json`; a folder or a zip) and Codex
(`sessions/YYYY/MM/DD/rollout-*.jsonl`).

The split is by template and was fixed before any rule was tuned: per language, the template ids are
shuffled with SPLIT_SEED and a third go to `heldout` (the issue's own examples stay in `tune`). Every
instance of a template is in its template's part.
"""

from __future__ import annotations

import json
import random
import re
import sys
import unicodedata
import uuid
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fillers  # noqa: E402
from templates import CODE, ISSUE_EXAMPLES, TEMPLATES, Template  # noqa: E402

SEED = "memvault-import-eval-1"
SPLIT_SEED = 20260301
INSTANCES = 2
HELD_OUT_SHARE = 3  # one template in three
OUT = HERE / "conversations.jsonl"
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
_SLOT = re.compile(r"\{([a-z0-9_]+)\}")
FORMATS = ("chatgpt", "claude", "codex")
NAMESPACE = uuid.UUID("6f1d8a52-5b1e-4c3e-9a57-0d6a7f3e2b11")


def kind(template: Template) -> str:
    """The stratum a template is split in, within its language."""
    if not template.expect:
        return "nothing"
    return "change" if any(e.change for e in template.expect) else "plain"


def split() -> dict[str, str]:
    parts: dict[str, str] = {}
    strata = sorted({(t.lang, kind(t)) for t in TEMPLATES})
    for lang, what in strata:
        ids = sorted(t.id for t in TEMPLATES if (t.lang, kind(t)) == (lang, what))
        random.Random(f"{SPLIT_SEED}:{lang}:{what}").shuffle(ids)
        open_ids = [i for i in ids if i not in ISSUE_EXAMPLES]
        held = set(open_ids[: -(-len(ids) // HELD_OUT_SHARE)])
        parts.update((i, "heldout" if i in held else "tune") for i in ids)
    return parts


def fold(text: str) -> str:
    """Case and accents folded, spaces collapsed: how keys are looked for in a statement."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _fill(template: Template, instance: int) -> dict[str, str]:
    rng = random.Random(f"{SEED}:{template.id}:{instance}")
    texts = [t.text + " " + t.reply for t in template.turns]
    texts += [e.gist + " " + (e.prior or "") for e in template.expect]
    slots = sorted(
        {s for text in texts for s in _SLOT.findall(text)}
        | {k for e in template.expect for k in e.keys if _SLOT.fullmatch("{" + k + "}") and k in _all_slots(template)}
    )
    taken: set[str] = set()
    values: dict[str, str] = {}
    for slot in slots:
        values[slot] = fillers.value(slot, template.lang, rng, taken)
        taken.add(values[slot])
    if "date" in values and "date2" in values:  # the end of a stay follows its start
        values["date2"] = fillers.paired("date", values["date"], "date2", template.lang)
    return values


def _all_slots(template: Template) -> set[str]:
    texts = [t.text + " " + t.reply for t in template.turns] + [e.gist + " " + (e.prior or "") for e in template.expect]
    return {s for text in texts for s in _SLOT.findall(text)}


def _put(text: str, values: dict[str, str]) -> str:
    return _SLOT.sub(lambda m: values[m.group(1)], text)


def _format(template: Template, number: int, instance: int) -> str:
    """Coding conversations are Codex sessions first; the others take the three formats in turn."""
    if template.formats == CODE:
        return CODE[instance]
    return FORMATS[(number + instance) % len(FORMATS)]


def conversations() -> list[dict[str, Any]]:
    parts = split()
    built = []
    for number, template in enumerate(TEMPLATES):
        for instance in range(INSTANCES):
            values = _fill(template, instance)
            started = START + timedelta(days=number * 4 + instance * 190, hours=number % 9)
            key = f"{template.id}#{instance}"
            built.append(
                {
                    "id": key,
                    "uuid": str(uuid.uuid5(NAMESPACE, key)),
                    "template": template.id,
                    "lang": template.lang,
                    "part": parts[template.id],
                    "instance": instance,
                    "format": _format(template, number, instance),
                    "title": _put(template.title, values),
                    "started_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    "turns": [
                        {"role": t.role, "text": _put(t.text, values), "reply": _put(t.reply, values)}
                        for t in template.turns
                    ],
                    "expect": [
                        {
                            "gist": _put(e.gist, values),
                            "type": e.type,
                            "also": list(e.also),
                            "keys": [fold(values.get(k, k)) for k in e.keys],
                            "change": e.change,
                            "prior": _put(e.prior, values) if e.prior else None,
                        }
                        for e in template.expect
                    ],
                    "secrets": sorted(v for k, v in values.items() if k.startswith("secret")),
                }
            )
    return built


# -- writing real exports -----------------------------------------------------------------------------


def _times(conversation: dict[str, Any]) -> list[datetime]:
    start = datetime.strptime(conversation["started_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    return [start + timedelta(seconds=47 * i) for i in range(2 * len(conversation["turns"]) + 2)]


def _uid(conversation: dict[str, Any], what: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{conversation['id']}/{what}"))


def _chatgpt_message(node: str, role: str, text: str, when: datetime, hidden: bool = False) -> dict[str, Any]:
    return {
        "id": node,
        "author": {"role": role, "name": None, "metadata": {}},
        "create_time": when.timestamp(),
        "update_time": None,
        "content": {"content_type": "text", "parts": [text]},
        "status": "finished_successfully",
        "end_turn": True if role == "assistant" else None,
        "weight": 1.0,
        "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {"request_id": node[:8]},
        "recipient": "all",
        "channel": None,
    }


def chatgpt(conversation: dict[str, Any]) -> dict[str, Any]:
    """One ChatGPT conversation: a mapping tree whose current branch ends at `current_node`; an edited
    turn leaves its first version and the reply to it on a side branch."""
    times = iter(_times(conversation))
    mapping: dict[str, Any] = {}

    def node(name: str, parent: str | None, message: dict[str, Any] | None) -> str:
        mapping[name] = {"id": name, "message": message, "parent": parent, "children": []}
        if parent is not None:
            mapping[parent]["children"].append(name)
        return name

    root = node("client-created-root", None, None)
    system = _uid(conversation, "system")
    last = node(system, root, _chatgpt_message(system, "system", "", next(times), hidden=True))
    for index, turn in enumerate(conversation["turns"]):
        name = _uid(conversation, f"turn{index}")
        if turn["role"] == "abandoned":
            side = node(name, last, _chatgpt_message(name, "user", turn["text"], next(times)))
            reply = _uid(conversation, f"turn{index}-reply")
            node(reply, side, _chatgpt_message(reply, "assistant", turn["reply"], next(times)))
            continue
        last = node(name, last, _chatgpt_message(name, turn["role"], turn["text"], next(times)))
    return {
        "title": conversation["title"],
        "create_time": _times(conversation)[0].timestamp(),
        "update_time": _times(conversation)[-1].timestamp(),
        "mapping": mapping,
        "moderation_results": [],
        "current_node": last,
        "plugin_ids": None,
        "conversation_id": conversation["uuid"],
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "safe_urls": [],
        "default_model_slug": "gpt-4o",
        "id": conversation["uuid"],
    }


def _iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def claude(conversation: dict[str, Any]) -> dict[str, Any]:
    times = iter(_times(conversation))
    messages = []
    for index, turn in enumerate(conversation["turns"]):
        if turn["role"] == "abandoned":
            continue
        when = _iso(next(times))
        messages.append(
            {
                "uuid": _uid(conversation, f"turn{index}"),
                "text": turn["text"],
                "content": [
                    {
                        "start_timestamp": when,
                        "stop_timestamp": when,
                        "type": "text",
                        "text": turn["text"],
                        "citations": [],
                    }
                ],
                "sender": "human" if turn["role"] == "user" else "assistant",
                "created_at": when,
                "updated_at": when,
                "attachments": [],
                "files": [],
            }
        )
    return {
        "uuid": conversation["uuid"],
        "name": conversation["title"],
        "summary": "",
        "created_at": _iso(_times(conversation)[0]),
        "updated_at": _iso(_times(conversation)[-1]),
        "account": {"uuid": str(uuid.uuid5(NAMESPACE, "account"))},
        "chat_messages": messages,
    }


def codex_lines(conversation: dict[str, Any]) -> list[dict[str, Any]]:
    times = iter(_times(conversation))
    start = _iso(next(times))
    cwd = f"/home/fictional/{conversation['template'].split('-')[1]}"
    lines: list[dict[str, Any]] = [
        {"timestamp": start, "type": "session_meta", "payload": {
            "id": conversation["uuid"], "timestamp": start, "cwd": cwd, "originator": "codex_cli_rs",
            "cli_version": "0.46.0", "instructions": None}},
        {"timestamp": start, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <approval_policy>on-request"
             "</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>"}]}},
    ]  # fmt: skip
    for turn in conversation["turns"]:
        if turn["role"] == "abandoned":
            continue
        when = _iso(next(times))
        if turn["role"] == "user":
            lines.append({"timestamp": when, "type": "turn_context", "payload": {"cwd": cwd, "model": "gpt-5-codex"}})
            lines.append(
                {
                    "timestamp": when,
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": "user",
                        "content": [{"type": "input_text", "text": turn["text"]}],
                    },
                }
            )
            lines.append(
                {
                    "timestamp": when,
                    "type": "event_msg",
                    "payload": {"type": "user_message", "message": turn["text"], "images": []},
                }
            )
        else:
            lines.append(
                {
                    "timestamp": when,
                    "type": "response_item",
                    "payload": {
                        "type": "reasoning",
                        "summary": [],
                        "content": None,
                        "encrypted_content": "gAAAAB-fictional",
                    },
                }
            )
            lines.append(
                {
                    "timestamp": when,
                    "type": "response_item",
                    "payload": {
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "output_text", "text": turn["text"]}],
                    },
                }
            )
    return lines  # fmt: skip


def _zip(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return target


def write_chatgpt(items: list[dict[str, Any]], folder: Path, *, zipped: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "conversations.json").write_text(json.dumps([chatgpt(c) for c in items], indent=1), encoding="utf-8")
    (folder / "chat.html").write_text("<html><body><div id='root'></div></body></html>", encoding="utf-8")
    (folder / "user.json").write_text(json.dumps({"id": "user-fictional01", "email": "sam@example.com",
                                                  "chatgpt_plus_user": False}), encoding="utf-8")  # fmt: skip
    (folder / "message_feedback.json").write_text("[]", encoding="utf-8")
    (folder / "shared_conversations.json").write_text("[]", encoding="utf-8")
    return _zip(folder, folder.with_suffix(".zip")) if zipped else folder


def write_claude(items: list[dict[str, Any]], folder: Path, *, zipped: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "conversations.json").write_text(json.dumps([claude(c) for c in items]), encoding="utf-8")
    account = str(uuid.uuid5(NAMESPACE, "account"))
    (folder / "users.json").write_text(json.dumps([{"uuid": account, "full_name": "Sam Fictional",
        "email_address": "sam@example.com", "verified_phone_number": None}]), encoding="utf-8")  # fmt: skip
    (folder / "projects.json").write_text(json.dumps([{"uuid": str(uuid.uuid5(NAMESPACE, "project")),
        "name": "Home", "description": "", "is_private": True, "created_at": "2025-01-02T10:00:00.000Z",
        "docs": []}]), encoding="utf-8")  # fmt: skip
    return _zip(folder, folder.with_suffix(".zip")) if zipped else folder


def write_codex(items: list[dict[str, Any]], folder: Path) -> Path:
    sessions = folder / "sessions"
    for conversation in items:
        day = conversation["started_at"][:10].split("-")
        stamp = conversation["started_at"].replace(":", "-").rstrip("Z")
        path = sessions.joinpath(*day) / f"rollout-{stamp}-{conversation['uuid']}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in codex_lines(conversation)), encoding="utf-8")
    (folder / "config.toml").parent.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text('model = "gpt-5-codex"\n', encoding="utf-8")
    return folder


def write_exports(items: list[dict[str, Any]], folder: Path, instance: int) -> list[Path]:
    """The conversations as exports, one per format present; instance 0 zips ChatGPT and leaves Claude
    unzipped, instance 1 the other way round (both layouts are what people hand over)."""
    written = []
    by_format = {f: [c for c in items if c["format"] == f] for f in ("chatgpt", "claude", "codex")}
    if by_format["chatgpt"]:
        written.append(write_chatgpt(by_format["chatgpt"], folder / "chatgpt-export", zipped=instance == 0))
    if by_format["claude"]:
        written.append(write_claude(by_format["claude"], folder / "claude-export", zipped=instance == 1))
    if by_format["codex"]:
        written.append(write_codex(by_format["codex"], folder / "dot-codex"))
    return written


def main() -> None:
    built = conversations()
    OUT.write_text("".join(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n" for c in built), encoding="utf-8")
    parts = split()
    for part in ("tune", "heldout"):
        chosen = [c for c in built if c["part"] == part]
        print(
            f"{part}: {sum(1 for v in parts.values() if v == part)} templates, {len(chosen)} conversations, "
            f"{sum(len(c['expect']) for c in chosen)} expected memories "
            f"({sum(e['change'] for c in chosen for e in c['expect'])} changes)"
        )


if __name__ == "__main__":
    main()
