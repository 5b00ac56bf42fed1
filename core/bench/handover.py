"""What a condition hands to the assistant for one question: context lines, and what it cost."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ContextLine:
    key: str | None  # the data set key the line comes from (None: a line no record explains)
    text: str


@dataclass
class Handover:
    """The context given for one question, as the assistant would see it, with its costs."""

    lines: list[ContextLine] = field(default_factory=list)
    tokens: int = 0
    latency_ms: float = 0.0
    calls: int = 0
    skipped: bool = False  # the condition decided memory does not help
    error: str | None = None  # the call was refused (its error code)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @property
    def keys(self) -> list[str]:
        return [line.key for line in self.lines if line.key is not None]
