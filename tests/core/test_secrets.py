"""The writer gate refuses secrets (all examples here are fictional or published examples).

A refused write stores nothing anywhere (no memory, no proposal, no event) and the
reason names the class of secret, never the secret itself.
"""

from __future__ import annotations

import json
import math
import re
import string
from pathlib import Path

import pytest
from corekit import ASSISTANT, OWNER, REMOTE, Adder, dump
from hypothesis import given, settings
from hypothesis import strategies as st

from memvault.core.vault import Vault
from memvault.core.vocabulary.drafts import Draft
from memvault.core.vocabulary.errors import InvalidArgument
from memvault.core.vocabulary.model import Caller
from memvault.core.vocabulary.requests import ArchiveRequest, CorrectRequest, ProposeRequest
from memvault.core.writer import secrets
from memvault.core.writer.gate import rejection
from memvault.core.writer.secret_text import fold
from memvault.core.writer.secrets import find_secrets

LABELLED = Path(__file__).parents[1] / "hardening" / "data" / "secret_statements.jsonl"

# (statement, the secret inside it)
SECRETS = {
    "password in prose": ("My bank password is Tr0ub4dor&3 and I never share it", "Tr0ub4dor&3"),
    "passphrase with colon": ("wifi passphrase: purple-otter-42-lantern", "purple-otter-42-lantern"),
    "AWS access key": ("the deploy key is AKIAIOSFODNN7EXAMPLE for staging", "AKIAIOSFODNN7EXAMPLE"),
    "AWS secret key": (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    "GitHub token": (
        "the bot uses ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234 to push",
        "ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234",
    ),
    "Slack token": (
        "slack bot token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    "OpenAI-style key": (
        "the assistant key is sk-proj-Xy7Qm2Lp8Rt4Vw6Yk3Nb7Hc5Jd1Fg0SaZx9Qm2Lp8Rt4V",
        "sk-proj-Xy7Qm2Lp8Rt4Vw6Yk3Nb7Hc5Jd1Fg0SaZx9Qm2Lp8Rt4V",
    ),
    "private key block": (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAfictionalfictional\n-----END RSA PRIVATE KEY-----",
        "MIIEpAIBAAKCAQEAfictionalfictional",
    ),
    "JWT": (
        "session token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
        "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ),
    "card number": ("my card is 4111 1111 1111 1111 exp 12/29", "4111 1111 1111 1111"),
    "card number, no spaces": ("pay with 5500005555555559 next time", "5500005555555559"),
    "IBAN": ("rent goes to GB82 WEST 1234 5698 7654 32 monthly", "GB82 WEST 1234 5698 7654 32"),
    "IBAN, compact": ("the landlord's account is DE89370400440532013000 for rent", "DE89370400440532013000"),
    "one-time code": ("the verification code is 482913", "482913"),
    "2FA code": ("my 2FA code is 771204 for the bank", "771204"),
    "high-entropy string": ("keep this safe: Zx9Qm2Lp8Rt4Vw6Yk3Nb7Hc5Jd1Fg0Sa", "Zx9Qm2Lp8Rt4Vw6Yk3Nb7Hc5Jd1Fg0Sa"),
    "hex key named a key": (
        "the api key is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    ),
}

ORDINARY = [
    "We upgraded the build to Python 3.12.4 and Node 20.11.1 on 2026-02-14",
    "The regression was fixed in commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "The team of 12 meets at 09:30 in room 4.17 every Tuesday",
    "Order reference 4111 1111 1111 1112 was shipped on 3 March",  # 16 digits failing Luhn
    "The flat is 68.5 square metres and the rent rose 3% in 2025",
    "Release v2.14.0-rc.1 ships the new sync engine",
    "Call the plumber on 0161 496 0000 about the boiler",
    "The password manager we use is the one built into the browser",
]


def _fragments(secret: str) -> list[str]:
    """The secret and every 8-character window of it (so a partial echo is caught too)."""
    compact = secret.replace(" ", "")
    return [secret, compact] + [compact[i : i + 8] for i in range(0, max(1, len(compact) - 7))]


def _assert_refused_silently(vault: Vault, caller: Caller, statement: str, secret: str, **fields: object) -> None:
    before = dump(vault)
    answer = vault.add(caller, Draft.of(statement=statement, domain="misc", **fields))
    assert answer["outcome"] == "rejected", answer
    assert answer["id"] is None and answer["proposal_id"] is None
    assert "secret" in answer["reason"]
    for fragment in _fragments(secret):
        assert fragment not in answer["reason"]
    assert dump(vault) == before  # no memory row, no proposal, no event, no index entry


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_a_secret_is_refused_and_nothing_is_stored(module_vault: Vault, kind: str) -> None:
    statement, secret = SECRETS[kind]
    assert secret in statement
    for caller in (OWNER, ASSISTANT, REMOTE):
        _assert_refused_silently(module_vault, caller, statement, secret)


@pytest.mark.parametrize("field", ["evidence", "source", "source_reference", "tags", "entities"])
def test_a_secret_in_another_field_is_refused_too(module_vault: Vault, field: str) -> None:
    secret = "AKIAIOSFODNN7EXAMPLE"
    value: object = [secret] if field in ("tags", "entities") else f"see key {secret}"
    _assert_refused_silently(module_vault, OWNER, "The staging deploy uses the shared key", secret, **{field: value})


def test_a_correction_holding_a_secret_is_refused_without_echo(vault: Vault, add: Adder) -> None:
    target = add("The router admin login is on the sticker", domain="home")
    before = dump(vault)
    with pytest.raises(InvalidArgument) as raised:
        vault.correct(OWNER, CorrectRequest.of(id=target, statement="The router admin password is Hunter2-Fict!0us"))
    assert "Hunter2" not in raised.value.message and "secret" in raised.value.message
    assert dump(vault) == before


@pytest.mark.parametrize("statement", ORDINARY)
def test_ordinary_statements_with_numbers_are_accepted(module_vault: Vault, statement: str) -> None:
    assert module_vault.add(OWNER, Draft.of(statement=statement, domain="misc"))["outcome"] == "added"


@pytest.mark.parametrize("statement", ["ok thanks", "   ", "lol", "thanks, bye!", "?!"])
def test_chatter_is_refused(vault: Vault, statement: str) -> None:
    before = dump(vault)
    if not statement.strip():
        with pytest.raises(InvalidArgument):
            vault.add(OWNER, Draft.of(statement=statement))
    else:
        answer = vault.add(OWNER, Draft.of(statement=statement))
        assert answer["outcome"] == "rejected" and "chatter" in answer["reason"]
    assert dump(vault) == before


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


@settings(max_examples=80, deadline=None)
@given(body=st.text(alphabet="0123456789", min_size=15, max_size=15).filter(lambda b: b[0] != "0"))
def test_every_luhn_valid_16_digit_number_is_a_card_and_its_neighbours_are_not(body: str) -> None:
    number = body + _luhn_digit(body)
    grouped = " ".join(re.findall("....", number))
    assert "card number" in find_secrets(f"card {grouped} for the hotel")
    wrong = body + str((int(_luhn_digit(body)) + 1) % 10)
    assert "card number" not in find_secrets(f"order {wrong} for the hotel")


@pytest.mark.parametrize("caller", [OWNER, ASSISTANT], ids=["owner", "assistant"])
def test_an_archive_reason_holding_a_secret_is_refused_without_echo(vault: Vault, add: Adder, caller: Caller) -> None:
    target = add("The shed key is under the blue pot", domain="home")
    before = dump(vault)
    with pytest.raises(InvalidArgument) as raised:
        vault.archive(caller, ArchiveRequest.of(id=target, reason="moved it; the padlock password is Tr0ub4dor&3"))
    assert "Tr0ub4dor" not in raised.value.message and "secret" in raised.value.message
    assert dump(vault) == before


def _entropy(token: str) -> float:
    return -sum(token.count(c) / len(token) * math.log2(token.count(c) / len(token)) for c in set(token))


_ALNUM = string.ascii_letters + string.digits
_random_tokens = st.text(alphabet=_ALNUM, min_size=32, max_size=48).filter(
    lambda t: (
        any(c.islower() for c in t)
        and any(c.isupper() for c in t)
        and any(c.isdigit() for c in t)
        and _entropy(t) >= 4.3
    )
)


@settings(max_examples=100, deadline=None)
@given(token=_random_tokens, before=st.sampled_from(["keep", "the deploy uses", "note:"]))
def test_random_credentials_are_refused_and_never_echoed(token: str, before: str) -> None:
    reason = rejection(f"{before} {token} for the staging box")
    assert reason is not None and "secret" in reason
    assert token not in reason and token[:12] not in reason and token[-12:] not in reason


@pytest.mark.parametrize("caller", [OWNER, REMOTE], ids=["owner", "remote"])
def test_a_secret_as_the_domain_is_refused_too(module_vault: Vault, caller: Caller) -> None:
    secret = "ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3po1234"  # a domain name travels with its records
    before = dump(module_vault)
    answer = module_vault.add(caller, Draft.of(statement="The release bot pushes tags nightly", domain=secret))
    assert answer["outcome"] == "rejected" and "secret" in answer["reason"]
    assert secret.lower() not in answer["reason"]
    assert dump(module_vault) == before
    result = module_vault.propose(
        caller, ProposeRequest.of(candidates=[{"statement": "The release bot pushes tags nightly", "domain": secret}])
    )
    assert result["results"][0]["outcome"] == "rejected"
    assert dump(module_vault) == before


def test_provider_tokens_are_found_whatever_detect_secrets_was_set_to_meanwhile() -> None:
    """Our detector list is set once, process-wide; anything that resets detect-secrets' settings
    (another caller, a cache bust) is noticed on the next scan."""
    from detect_secrets.settings import cache_bust, transient_settings  # noqa: PLC0415

    token = "my github token is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert "GitHub Token" in find_secrets(token)
    with transient_settings({"plugins_used": [{"name": "AWSKeyDetector"}]}):
        assert "GitHub Token" in find_secrets(token)
    cache_bust()  # no detector configured at all
    assert "GitHub Token" in find_secrets(token)
    assert find_secrets("The allotment gate code is painted green") == []


def _provider_lines() -> list[str]:
    """Every line the provider scan reads for the statements known here and in the labelled set."""
    rows = LABELLED.read_text().splitlines()
    labelled = [json.loads(row)["text"] for row in rows if row.strip()]
    statements = [s for s, _ in SECRETS.values()] + ORDINARY + labelled
    folded = [fold(s) for s in statements]
    variants = [v for f in folded for v in (f, secrets._compact_runs(f), secrets._decoded_base64(f))]
    return [line for v in variants for line in v.splitlines() if line]


def test_the_provider_pre_check_passes_every_line_the_scan_flags() -> None:
    """Lines no detector pattern matches are not scanned: never one the scan would flag."""
    from detect_secrets.core.scan import scan_line  # noqa: PLC0415

    assert secrets._finding_patterns() is not None  # our detectors are all pattern-based: the pre-check is on
    flagged = [line for line in _provider_lines() if list(scan_line(line))]
    assert len(flagged) >= 10  # the examples above reach the provider detectors
    assert all(secrets._could_hold_provider_secret(line) for line in flagged)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + "-_=+/.:@ \"'", min_size=10, max_size=120))
def test_the_provider_pre_check_is_no_weaker_on_arbitrary_text(line: str) -> None:
    from detect_secrets.core.scan import scan_line  # noqa: PLC0415

    secrets._use_our_plugins()
    if list(scan_line(line)):
        assert secrets._could_hold_provider_secret(line)


def test_ascii_text_is_its_own_fold() -> None:
    """`fold` leaves ASCII text as it is (bar line breaks): NFKC, the format-character filter,
    digits of other scripts and the look-alike table change no ASCII character."""
    import unicodedata  # noqa: PLC0415

    from memvault.core.writer import secret_text  # noqa: PLC0415

    every = "".join(chr(code) for code in range(128))
    slow = "".join(secret_text._ascii_digit(c) for c in unicodedata.normalize("NFKC", every) if secret_text._visible(c))
    assert slow.translate(secret_text._confusable_table()) == every
    full_width = "\uff30\uff41\uff53\uff53\uff11\uff12\uff13"  # Pass123 in full-width forms
    assert fold(f"{full_width} p\u0430ss\u200bword") == "Pass123 password"  # not ASCII: folded
