"""What an import takes from the person's turns, in English, German, French and Spanish: decisions,
plans, appointments, limits, preferences and changes, said with or without "I"; a change becomes a
correction of the record it replaces. Chatter, questions, requests, abandoned branches, the
assistant's words and secrets stay out. (tests/import_eval/ measures the same on a labelled set.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memvault.core.importers.conversation import Conversation, Turn
from memvault.core.importers.extract import candidates
from memvault.core.importers.request import ImportRequest
from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import OWNER


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMVAULT_EMBEDDINGS", "off")


def _said(*turns: str) -> list[tuple[str, str]]:
    said = tuple(Turn("user", text, None, f"m{i}") for i, text in enumerate(turns))
    conversation = Conversation("c1", "t", None, said, "p")
    return [(c.statement, c.type.value) for c in candidates(conversation) if not c.weak]


def _claude_export(folder: Path, conversations: list[list[tuple[str, str]]]) -> Path:
    """A Claude export folder (conversations.json, users.json) of the given (sender, text) turns."""
    folder.mkdir()
    items = [
        {
            "uuid": f"conv-{n}", "name": f"chat {n}", "created_at": f"2025-0{n + 1}-10T09:00:00Z",
            "chat_messages": [
                {"uuid": f"m-{n}-{i}", "sender": sender, "text": text, "created_at": f"2025-0{n + 1}-10T09:0{i}:00Z"}
                for i, (sender, text) in enumerate(turns)
            ],
        }
        for n, turns in enumerate(conversations)
    ]  # fmt: skip
    (folder / "conversations.json").write_text(json.dumps(items), encoding="utf-8")
    (folder / "users.json").write_text(json.dumps([{"uuid": "u1", "full_name": "Sam Fictional"}]), encoding="utf-8")
    return folder


def _stored(vault: Vault, statement: str) -> str:
    draft = Draft.of(statement=statement, valid_from="2024-06-01", event_time="2024-06-01")
    return str(vault.add(OWNER, draft)["id"])


def test_the_issue_examples_are_candidates_and_changes_correct_what_they_replace(vault: Vault, tmp_path: Path) -> None:
    heroku = _stored(vault, "Tidewell is deployed to Heroku.")
    employer = _stored(vault, "I work at Kestrel Freight.")
    path = _claude_export(
        tmp_path / "claude",
        [
            [("human", "Remind me: my next dentist appointment is on March 14 at Brookside Dental. Can you draft "
                       "a note to my boss?"), ("assistant", "Sure, here is a draft.")],
            [("human", "For Tidewell we deploy to Fly.io from now on, not Heroku. Can you update the workflow?")],
            [("human", "Quick update: I no longer work at Kestrel Freight; now I work at Quillon Labs as a QA lead.")],
        ],
    )  # fmt: skip
    report = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert report["format"] == "claude"
    added = {a["statement"]: a["type"] for a in report["additions"]}
    assert added == {"My next dentist appointment is on March 14 at Brookside Dental.": "NEXT_ACTION"}
    corrected = {c["statement"]: (c["type"], c["target_id"]) for c in report["corrections"]}
    assert corrected == {
        "For Tidewell we deploy to Fly.io from now on, not Heroku.": ("DECISION", heroku),
        "I no longer work at Kestrel Freight; now I work at Quillon Labs as a QA lead.": ("FACT", employer),
    }
    done = vault.imports.run(OWNER, ImportRequest(path=str(path), commit=True))
    assert done["counts"] == {"added": 1, "corrected": 2, "confirmed": 0, "excluded": 0, "conversations": 3}
    old = vault.get(OWNER, employer)["memory"]
    assert old["status"] == "superseded"
    assert "Quillon Labs" in vault.get(OWNER, str(old["superseded_by_id"]))["memory"]["statement"]


@pytest.mark.parametrize(
    ("turn", "kind"),
    [
        ("Wir haben uns für Postgres entschieden, SQLite reicht für Bramblecote nicht.", "DECISION"),
        ("Ab sofort machen wir das Code-Review immer donnerstags.", "DECISION"),
        ("Nächsten Dienstag um 9:00 habe ich einen Termin beim Hautarzt.", "NEXT_ACTION"),
        ("Ich darf wegen meiner Laktoseintoleranz keine Milchprodukte essen.", "CONSTRAINT"),
        ("Je dois rendre le dossier de subvention avant le 30 avril.", "NEXT_ACTION"),
        ("On a choisi Hetzner pour héberger Moraine.", "DECISION"),
        ("Rappelle-moi que la réunion de copropriété est le 12 mai à 18h30.", "NEXT_ACTION"),
        ("Je préfère qu'on se parle en français.", "PREFERENCE"),
        ("Tengo que renovar el pasaporte antes de julio.", "NEXT_ACTION"),
        ("Hemos decidido mudarnos a Zaragoza el año que viene.", "DECISION"),
        ("No puedo tomar lactosa, me sienta fatal.", "CONSTRAINT"),
        ("Team rule: no merges to main after 17:00 on Fridays.", "CONSTRAINT"),
        ("Dentist on June 3 at 8:30, Parkview Dental Care.", "NEXT_ACTION"),
        ("We switched the Pipistrelle CI from Jenkins to Buildkite last month.", "FACT"),
        ("Still haven't decided whether to rent or buy in Porto.", "OPEN_QUESTION"),
    ],
)
def test_kinds_are_found_in_four_languages_with_or_without_i(turn: str, kind: str) -> None:
    assert [k for _, k in _said(turn)] == [kind]


@pytest.mark.parametrize(
    "turn",
    [
        "ok thanks, that helps!",
        "What if we rewrote Halyard in Go?",
        "Can you explain how a B-tree works?",
        "If I ever move to Canada, would my pension follow me?",
        "Kannst du mir eine Mail an Birte schreiben?",
        "Tu peux résumer cet article ?",
        "¿Me ayudas con la declaración?",
        "```python\nx = compute(values)  # I prefer this loop\n```",
        "config = load(path) if path else defaults",
    ],
)
def test_chatter_questions_requests_hypotheticals_and_code_are_not_candidates(turn: str) -> None:
    assert _said(turn) == []


def test_a_request_beside_a_statement_keeps_the_statement() -> None:
    assert _said("I'm vegetarian and Dana can't have gluten, so what can we cook on Saturday?") == [
        ("I'm vegetarian and Dana can't have gluten.", "CONSTRAINT")
    ]
    assert _said("never run the e2e suite locally, it hits the staging database.") == [
        ("Never run the e2e suite locally, it hits the staging database.", "CONSTRAINT")
    ]


def test_the_assistant_an_abandoned_branch_and_a_secret_stay_out(vault: Vault, tmp_path: Path) -> None:
    def node(name: str, parent: str | None, role: str | None, text: str = "") -> dict[str, object]:
        message = None if role is None else {"id": name, "author": {"role": role}, "content": {"parts": [text]}}
        return {"id": name, "parent": parent, "message": message}

    mapping = {
        "root": node("root", None, None),
        "a": node("a", "root", "user", "We're going with MySQL for the Halyard backend."),  # edited away
        "a2": node("a2", "a", "assistant", "Great, MySQL it is."),
        "b": node("b", "root", "user", "We're going with SQLite for the Halyard backend. The wifi password at the "
                                       "office is Tulpe-8842-blau, by the way."),
        "c": node("c", "b", "assistant", "I decided you should use Postgres; my favourite is Postgres."),
    }  # fmt: skip
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([{"id": "g1", "title": "db", "mapping": mapping, "current_node": "c"}]))
    report = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert report["format"] == "chatgpt"
    assert [a["statement"] for a in report["additions"]] == ["We're going with SQLite for the Halyard backend."]
    assert "Tulpe-8842-blau" not in json.dumps(report) and "MySQL" not in json.dumps(report)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I live in Leeds.", "I don't live in Leeds anymore, now I live in Porto."),
        ("Ich wohne in Kassel.", "Ich wohne nicht mehr in Kassel, sondern in Bremen."),
        ("Notre réunion d'équipe est le lundi.", "Notre réunion d'équipe est désormais le jeudi au lieu du lundi."),
        ("Nuestro proveedor de hosting es Render.", "Ahora usamos Railway como proveedor de hosting en vez de Render."),
    ],
)
def test_a_change_in_a_later_conversation_corrects_the_earlier_one(
    vault: Vault, tmp_path: Path, before: str, after: str
) -> None:
    path = _claude_export(tmp_path / "claude", [[("human", before)], [("human", after)]])
    dry = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert [a["statement"] for a in dry["additions"]] == [before]
    assert [c["statement"] for c in dry["corrections"]] == [after]
    done = vault.imports.run(OWNER, ImportRequest(path=str(path), commit=True))
    assert (done["counts"]["added"], done["counts"]["corrected"]) == (1, 1)
    current = {m["statement"] for m in vault.list_memories(OWNER)["items"]}
    assert after in current and before not in current


def test_a_change_leaves_a_record_about_something_else_alone(vault: Vault, tmp_path: Path) -> None:
    office = _stored(vault, "Kestrel Freight's office is in Leeds.")
    path = _claude_export(
        tmp_path / "claude", [[("human", "I no longer work at Kestrel Freight; now I work at Quillon Labs.")]]
    )
    report = vault.imports.run(OWNER, ImportRequest(path=str(path)))
    assert report["corrections"] == [] and len(report["additions"]) == 1
    assert vault.get(OWNER, office)["memory"]["status"] == "current"
