"""Issue 13, secrets: the forms that were stored or staged before the gate was rebuilt.

Every write path refuses them (add, propose, correct, the domain field) and stores
nothing anywhere; the labelled set meets the recall and false-refusal bars.
"""

from __future__ import annotations

import pytest
from secret_set import rows, score

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import LOCAL_ASSISTANT, OWNER
from memvault.core.vocabulary.requests import CorrectRequest, ProposeRequest

ASSISTANT = LOCAL_ASSISTANT

# One of each form the issue found stored or staged (all values fictional).
ISSUE_FORMS = {
    "password in prose": "the password for the NAS is Quokka-Lantern",
    "pw:": "pw: marmalade77",
    "pass:": "pass: kestrel-blue",
    "login user / pass": "the router login is admin / Sunset88",
    "German": "Das WLAN-Passwort lautet Tannenbaum77",
    "French": "le mot de passe de la box est soleil2024",
    "Spanish": "la contraseña del correo es gato123",
    "split over two lines": "password for the guest wifi:\nkestrel",
    "Cyrillic look-alike letters": "the \u0440\u0430ssw\u043erd for the NAS is BlueOtter",
    "zero-width space in the word": "the pass\u200bword for the NAS is BlueOtter",
    "full-width letters": "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44: \uff4f\uff52\uff41\uff4e\uff47\uff45",
    "card with dots": "card 4111.1111.1111.1111 for the hotel",
    "card with slashes": "card 4111/1111/1111/1111 for the hotel",
    "card in full-width digits": "card " + " ".join(["\uff14\uff11\uff11\uff11"] + ["\uff11" * 4] * 3),
    "card with zero-width characters": "card 4111\u200b1111\u200b1111\u200b1111",
    "IBAN with dashes": "rent goes to DE89-3704-0044-0532-0130-00",
    "account and routing in prose": "my checking account number is 4402918837 and the routing number is 011000015",
    "base64 API key": "the key, base64: c2stcHJvai1YeTdRbTJMcDhSdDRWdzZZazNOYjdIYzVKZDFGZzBTYVp4OVFtMkxwOFJ0NFY=",
    "split API key": "aws key in parts AKIA IOSF ODNN 7EXA MPLE",
    "seed phrase": "wallet words: legal winner thank year wave sausage worth useful legal winner thank yellow",
    "recovery codes": "GitHub recovery codes: 8f3k-2j9d 7h2k-9d8s",
    "door code": "the door code is 4821",
    "alarm code": "Alarmcode: 55821",
    "safe code": "the safe combination is 12-34-56",
}


def test_the_labelled_set_meets_the_bars() -> None:
    scores = score(rows())
    assert scores.secrets >= 300 and scores.secret_free >= 300
    assert scores.recall >= 0.98, scores.missed
    assert scores.false_refusal_rate <= 0.02, scores.refused_wrongly


@pytest.mark.parametrize("form", sorted(ISSUE_FORMS))
def test_each_form_is_refused_on_every_write_path(vault: Vault, form: str) -> None:
    secret_text = ISSUE_FORMS[form]
    for caller in (OWNER, ASSISTANT):
        assert vault.add(caller, Draft.of(statement=secret_text, domain="home"))["outcome"] == "rejected"
        proposed = vault.propose(caller, ProposeRequest.of(candidates=[{"statement": secret_text, "domain": "home"}]))
        assert proposed["results"][0]["outcome"] == "rejected"
    target = vault.add(OWNER, Draft.of(statement="The NAS sits in the hall cupboard", domain="home"))["id"]
    with pytest.raises(InvalidArgument) as raised:
        vault.correct(OWNER, CorrectRequest.of(id=target, statement=f"The NAS moved; {secret_text}"))
    assert "secret" in raised.value.message
    assert vault.proposals(OWNER) == []
    assert [item["id"] for item in vault.list_memories(OWNER)["items"]] == [target]
