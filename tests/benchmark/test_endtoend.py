"""The end-to-end mode: off by default, stopped by the kill switch, its billing counted apart.

No network here: the endpoint is replaced by a stand-in function (`post`); the refusals are
checked before anything could be sent.
"""

from __future__ import annotations

from typing import Any

import pytest

from memvault.core.bench import dataset
from memvault.core.bench.endtoend import EndToEnd
from memvault.core.bench.handover import ContextLine, Handover
from memvault.core.vault import Vault
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, KillSwitchEngaged
from memvault.core.vocabulary.model import OWNER


def configure(vault: Vault) -> None:
    for name, value in (
        ("bench_end_to_end", True),
        ("bench_endpoint", "http://127.0.0.1:9/v1"),
        ("bench_answer_model", "answerer"),
        ("bench_judge_model", "judge"),
    ):
        vault.set_setting(OWNER, name, value)


def never(url: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    raise AssertionError("nothing may be sent")


def test_it_is_off_by_default(vault: Vault) -> None:
    assert vault.get_setting("bench_end_to_end") is False
    with pytest.raises(Forbidden):
        EndToEnd(vault.get_setting, never)


@pytest.mark.parametrize("position", ["on", "all"])
def test_the_kill_switch_refuses_it(vault: Vault, position: str) -> None:
    configure(vault)
    vault.set_kill_switch(OWNER, position)
    with pytest.raises(KillSwitchEngaged):
        EndToEnd(vault.get_setting, never)


def test_it_needs_an_endpoint_and_both_models(vault: Vault) -> None:
    configure(vault)
    vault.set_setting(OWNER, "bench_judge_model", "")
    with pytest.raises(InvalidArgument):
        EndToEnd(vault.get_setting, never)


def test_billing_is_counted_apart_and_the_kill_switch_stops_a_run_midway(vault: Vault) -> None:
    configure(vault)
    data = dataset.load("small")
    questions = list(data.questions[:3])
    handovers = {q.id: Handover([ContextLine(None, q.answer or "")]) for q in questions}
    sent: list[str] = []

    def post(url: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        sent.append(body["model"])
        usage = {"prompt_tokens": 100, "completion_tokens": 5} if body["model"] == "answerer" else {"prompt_tokens": 40}
        reply = "yes" if body["model"] == "judge" else "an answer"
        return {"choices": [{"message": {"content": reply}}], "usage": usage}

    result = EndToEnd(vault.get_setting, post).run("memvault", questions, handovers)
    assert sent == ["answerer", "judge"] * 3
    assert (result.answering.calls, result.answering.prompt_tokens, result.answering.completion_tokens) == (3, 300, 15)
    assert (result.judging.calls, result.judging.prompt_tokens) == (3, 120)
    assert result.to_dict()["accuracy"] == 1.0

    def post_then_switch(url: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        vault.set_kill_switch(OWNER, "on")  # the person pulls the switch during the run
        return post(url, body, headers)

    sent.clear()
    with pytest.raises(KillSwitchEngaged):
        EndToEnd(vault.get_setting, post_then_switch).run("memvault", questions, handovers)
    assert sent == ["answerer"]
