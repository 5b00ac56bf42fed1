"""Secrets said the way people say them are refused on every write path, the person's own included, and
the answer names the class, never the secret (contract revision 4). Sentences here are fictional and none
is in tests/writer_eval, where the secret head was trained."""

from __future__ import annotations

import pytest
from corekit import ASSISTANT, OWNER, count

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.writer.gate import rejection

SAID = {
    "wifi key beside its network": "the wifi at the allotment hut is GreenShed_5G and the key is wombat-ladder-88",
    "door code as key presses": "to open the street door you tap 3 9 1 7 and then the key symbol",
    "garage code in words": "garage opener code: nine one five two",
    "key split in two": "the Brindle API key starts with sk_live_7Hq2 and ends with Zp9RrT4mWq",
    "safe combination": "Oma's safe opens with 22-41-09",
    "dial turns": "Tresor im Lager: rechts 31, links 12, rechts 5",
    "SIM PIN": "the SIM PIN of my work phone is 6604",
    "alarm code in German": "Alarmanlage im Laden: 7312 und dann Raute",
    "building code in French": "le code de l'immeuble c'est 48B17",
    "router password in Spanish": "la contraseña del router de casa es pepino-azul-77",
    "login as e-mail and password": "the Kettleby shop login is mira.tovey@example.net / Qm7vLp2xRt",
    "passphrase with spaces in quotes": "backup drive passphrase: 'seven otters paddle past 4 piers'",
    "hotel safe set to a number": "the safe in our hotel room is set to 840271",
    "SMS code in Spanish": "el código que me llegó por sms es 551 904",
    "SMS code in French": "le code reçu par SMS est 734 118",
}
NOT_SECRETS = [
    "turn left at the bakery, then right after 200 m",
    "Eye pressure: right 18, left 17 at the last check-up.",
    "Tyre pressure left 32, right 32.",
    "Packstation 112 near the station is where my parcels go.",
    "my desk phone extension is 2291",
    "the build fails with exit code 137",
    "the Lisbon flat is on the 4th floor, door 4B",
    "the wifi network at the studio is called Loft-Guest",
    "I reset my bank password last week",
    "budget for the trip is 1200 euros",
    "Flight LH 1842 leaves Frankfurt at 07:10",
    "the door code changes every quarter",
    "port 5432 is postgres on the staging box",
    "The flat is 68.5 square metres and the rent rose 3% in 2025",
    "write to the Kettleby shop at orders@example.net / Mira answers within a day",
    "the safe in the hotel room is too small for a laptop",
    "ask for the passphrase at the front desk",
    "el código postal de la oficina es 28014",
]


@pytest.mark.parametrize("statement", SAID.values(), ids=SAID.keys())
def test_a_secret_in_prose_is_refused_and_not_echoed(vault: Vault, statement: str) -> None:
    for caller in (OWNER, ASSISTANT):
        answer = vault.add(caller, Draft.of(statement=statement, domain="home"))
        assert answer["outcome"] == "rejected" and "secret" in answer["reason"]
        assert not any(word in answer["reason"] for word in statement.split() if any(c.isdigit() for c in word))
    assert count(vault, "memories") == count(vault, "proposals") == 0


@pytest.mark.parametrize("statement", NOT_SECRETS)
def test_numbers_and_named_codes_without_their_value_are_kept(statement: str) -> None:
    assert rejection(statement) is None


def test_a_domain_or_tag_beside_a_number_is_not_read_as_a_sentence(vault: Vault) -> None:
    answer = vault.add(OWNER, Draft.of(statement="Fictional locker 4 is by the gym door", domain="d7", tags=["t9"]))
    assert answer["outcome"] == "added"
