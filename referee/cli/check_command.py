"""``referee check FILE...``: the verdicts printed and the exit status, for click's
command and for the quick start that does without click (referee/cli/entry.py)."""

from __future__ import annotations

from pathlib import Path

from referee.cli.output import INTERRUPTED, echo, echo_drawn, json_text
from referee.transcript.check import Verdict, check_file, collect_if_piled_up, gc_paused
from referee.words import counted


def check_transcripts(transcripts: tuple[Path, ...], as_json: bool = False,
                      knowledge: bool = False) -> int:
    """Check each transcript and print its verdict on standard output (legal or not: the
    verdict is the output); the worst exit status: 0 if all are legal, 1 if one is not,
    2 on bad usage or rules, 130 when interrupted."""
    statuses: list[int] = []
    try:
        with gc_paused():  # for the whole run: a pass at each file's end only costs time
            for transcript in transcripts:
                statuses.append(_checked(transcript, len(transcripts), as_json, knowledge))
                collect_if_piled_up()
    except KeyboardInterrupt:
        echo(f"interrupted after {len(statuses)} of {counted(len(transcripts), 'file')}",
             err=True)
        return INTERRUPTED
    if len(transcripts) > 1 and not as_json:
        legal = statuses.count(0)
        echo(f"{len(transcripts)} files: {legal} legal, {len(transcripts) - legal} not")
    return max(statuses)


def _checked(transcript: Path, files: int, as_json: bool, knowledge: bool) -> int:
    """Check one transcript of ``files`` and print its verdict; its exit status."""
    verdict = check_file(transcript, knowledge=knowledge)
    if as_json:
        record = verdict.to_json()
        if files > 1:
            record = {"file": verdict.source, **record}
        echo(json_text(record))
    elif files == 1:
        echo(verdict.report())  # the verdict is the output, legal or not
        if verdict.knowledge is not None:
            from referee.live.display import knowledge_table, table_text  # rich: lazily

            echo_drawn(table_text(knowledge_table(verdict.knowledge, verdict.state)))
    else:
        echo(verdict.summary())
    return status_of(verdict)


def status_of(verdict: Verdict) -> int:
    """A verdict's exit status: 0 legal, 1 not, 2 for bad usage or rules."""
    return 0 if verdict.ok else verdict.error.exit_status if verdict.error else 1
