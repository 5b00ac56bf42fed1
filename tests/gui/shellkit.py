"""Fictional data for the shell's GUI tests (the main window, tray, inbox, settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, PurgeRequest


@dataclass
class Seeded:
    """Ids of the fictional data: records the person wrote, proposals an assistant staged."""

    records: dict[str, str] = field(default_factory=dict)
    proposals: dict[str, str] = field(default_factory=dict)


RECORDS = {
    "tea": ("Mara prefers tea over coffee in the morning", "food", "PREFERENCE"),
    "bike": ("Mara commutes to the Lindenhof studio by bike", "routine", "FACT"),
    "kiln": ("The pottery kiln at Lindenhof is fired on Thursdays", "pottery", "FACT"),
    "glaze": ("Decided to use the celadon glaze for the spring series", "pottery", "DECISION"),
}


def seed(vault: Vault) -> Seeded:
    """The person's records, then an assistant's pending add, correction, writer pass, archive and purge."""
    seeded = Seeded()
    for key, (statement, domain, kind) in RECORDS.items():
        draft = Draft.parse({"statement": statement, "domain": domain, "type": kind})
        seeded.records[key] = vault.add(OWNER, draft)["id"]
    tea, bike, kiln = (seeded.records[k] for k in ("tea", "bike", "kiln"))
    correction = CorrectRequest.parse(
        {"id": tea, "statement": "Mara prefers green tea in the morning", "reason": "she said so on the phone"}
    )
    staged = {
        "add": vault.add(LOCAL_ASSISTANT, Draft(statement="Mara's cat is called Pixel", domain="pets")),
        "correct": vault.correct(LOCAL_ASSISTANT, correction),
        "archive": vault.archive(LOCAL_ASSISTANT, ArchiveRequest.parse({"id": bike, "reason": "she moved house"})),
        "purge": vault.request_purge(LOCAL_ASSISTANT, PurgeRequest.parse({"id": kiln, "reason": "she asked"})),
    }
    for key, answer in staged.items():
        seeded.proposals[key] = answer.get("proposal_id") or answer["request_id"]
    return seeded
