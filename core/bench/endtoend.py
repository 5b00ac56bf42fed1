"""The optional end-to-end mode: each condition's context goes to an answering model, a judge grades it.

Off by default. It runs only when the person has switched it on (`bench_end_to_end`), named an
OpenAI-compatible endpoint and both models, and while the kill switch is off: the switch is read
again before every call, so turning it on stops a run midway. What is sent is the fictional
benchmark data only, never the person's store. The API key, if the endpoint needs one, comes from
MEMVAULT_BENCH_API_KEY and is never stored or logged. Billed tokens and calls are counted apart
for the answering model and the judge.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memvault.core.bench.dataset import Question
from memvault.core.bench.handover import Handover
from memvault.core.vocabulary.errors import Forbidden, InvalidArgument, KillSwitchEngaged
from memvault.core.vocabulary.model import KillSwitch

Settings = Callable[[str], Any]
Post = Callable[[str, dict[str, Any], dict[str, str]], dict[str, Any]]  # url, body, headers -> JSON answer
TIMEOUT_S = 60
ANSWER_PROMPT = (
    "You are a personal assistant. Use the memory context if it helps; if it does not hold the answer, "
    "say you do not know.\n\nMemory context:\n{context}\n\nRequest: {query}"
)
JUDGE_PROMPT = (
    "Grade an assistant's reply. Request: {query}\nExpected: {expected}\nReply: {reply}\n"
    "Answer with one word: yes if the reply is consistent with the expected answer, no otherwise."
)


@dataclass
class Billing:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, usage: Mapping[str, Any]) -> None:
        self.calls += 1
        self.prompt_tokens += int(usage.get("prompt_tokens", 0))
        self.completion_tokens += int(usage.get("completion_tokens", 0))


@dataclass
class EndToEndResult:
    condition: str
    correct: int = 0
    graded: int = 0
    answering: Billing = field(default_factory=Billing)
    judging: Billing = field(default_factory=Billing)

    def to_dict(self) -> dict[str, Any]:
        accuracy = self.correct / self.graded if self.graded else None
        return asdict(self) | {"accuracy": accuracy}


class EndToEnd:
    def __init__(self, settings: Settings, post: Post | None = None) -> None:
        self.settings = settings
        self._guard()
        self.endpoint = str(settings("bench_endpoint")).rstrip("/")
        self.answer_model = str(settings("bench_answer_model"))
        self.judge_model = str(settings("bench_judge_model"))
        if not (self.endpoint and self.answer_model and self.judge_model):
            raise InvalidArgument("end-to-end benchmark: set bench_endpoint, bench_answer_model and bench_judge_model")
        self.post = post or _post_json

    def _guard(self) -> None:
        if not self.settings("bench_end_to_end"):
            raise Forbidden("the end-to-end benchmark is off: `memvault config set bench_end_to_end true` first")
        if self.settings("kill_switch") != KillSwitch.OFF:
            raise KillSwitchEngaged("the kill switch is on: the end-to-end benchmark sends nothing")

    def run(self, name: str, questions: Sequence[Question], handovers: Mapping[str, Handover]) -> EndToEndResult:
        result = EndToEndResult(name)
        for question in questions:
            reply = self._chat(
                self.answer_model,
                ANSWER_PROMPT.format(context=handovers[question.id].text or "(none)", query=question.query),
                result.answering,
            )
            expected = question.answer or "that it does not know (nothing about this was ever saved)"
            verdict = self._chat(
                self.judge_model,
                JUDGE_PROMPT.format(query=question.query, expected=expected, reply=reply),
                result.judging,
            )
            result.graded += 1
            result.correct += verdict.strip().lower().startswith("yes")
        return result

    def _chat(self, model: str, prompt: str, billing: Billing) -> str:
        self._guard()  # the kill switch stops a run between any two calls
        headers = {"Content-Type": "application/json"}
        key = os.environ.get("MEMVAULT_BENCH_API_KEY")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body = {"model": model, "messages": [{"role": "user", "content": prompt}], "temperature": 0}
        answer = self.post(f"{self.endpoint}/chat/completions", body, headers)
        billing.add(answer.get("usage") or {})
        return str(answer["choices"][0]["message"]["content"])


def _post_json(url: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    if not url.startswith(("http://", "https://")):
        raise InvalidArgument("bench_endpoint: expected an http(s) URL")
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")  # noqa: S310
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:  # noqa: S310 (the scheme is checked above)
        data: dict[str, Any] = json.loads(response.read())
    return data
