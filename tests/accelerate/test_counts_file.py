"""A worker's mapped counts file: exact under threads, bounded, read only where whole."""

from __future__ import annotations

import threading
from pathlib import Path

from rapidbleu.accelerate.counts_file import OVERFLOW, SLOTS, CountsFile, read_counts
from rapidbleu.accelerate.profile import Profile


def test_threads_lose_no_call(tmp_path: Path) -> None:
    counts = CountsFile(tmp_path, 1)

    def calls(name: str) -> None:
        for _ in range(5000):
            counts.add(name, "rapidbleu", 0.5)

    threads = [threading.Thread(target=calls, args=(f"n{i % 3}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = {r["name"]: (r["count"], r["seconds"]) for r in read_counts(tmp_path)}
    assert rows == {"n0": (10000, 5000.0), "n1": (10000, 5000.0), "n2": (10000, 5000.0)}


def test_pairs_beyond_the_slots_share_the_last(tmp_path: Path) -> None:
    counts = CountsFile(tmp_path, 2)
    for i in range(SLOTS + 4):
        counts.add(f"n{i}", "fallback", 1.0)
    counts.add(f"n{SLOTS + 1}", "fallback", 1.0)
    rows = read_counts(tmp_path)
    assert len(rows) == SLOTS
    assert rows[SLOTS - 2] == {
        "name": f"n{SLOTS - 2}",
        "where": "fallback",
        "count": 1,
        "seconds": 1.0,
    }
    name, where = OVERFLOW
    assert rows[-1] == {"name": name, "where": where, "count": 6, "seconds": 6.0}


def test_a_line_still_being_written_is_not_read(tmp_path: Path) -> None:
    counts = CountsFile(tmp_path, 3)
    counts.add("whole", "rapidbleu", 1.0)
    (names,) = tmp_path.glob("3-*.names")
    with open(names, "ab") as f:
        f.write(b"half\trapid")  # a process between its write's halves: no numbers yet either
    assert read_counts(tmp_path) == [
        {"name": "whole", "where": "rapidbleu", "count": 1, "seconds": 1.0}
    ]


def test_a_profile_that_shares_records_in_the_file_and_clear_takes_it_back(tmp_path: Path) -> None:
    profile = Profile()
    profile.add("before", "rapidbleu", 1.0)
    profile.share(CountsFile(tmp_path, 4))
    profile.add("after", "rapidbleu", 2.0)
    assert profile.rows() == []
    assert read_counts(tmp_path) == [
        {"name": "after", "where": "rapidbleu", "count": 1, "seconds": 2.0}
    ]
    profile.clear()  # a forked child's first step: its parent's file is not its own
    profile.add("mine", "fallback", 3.0)
    assert profile.rows() == [{"name": "mine", "where": "fallback", "count": 1, "seconds": 3.0}]
    assert len(read_counts(tmp_path)) == 1


def test_files_are_made_at_the_first_call_and_never_collide(tmp_path: Path) -> None:
    first = CountsFile(tmp_path, 5)
    assert list(tmp_path.iterdir()) == []  # a process that makes no call leaves nothing
    first.add("a", "rapidbleu", 1.0)
    second = CountsFile(tmp_path, 5)  # the same pid, later in a long run
    second.add("a", "rapidbleu", 2.0)
    assert len(list(tmp_path.glob("5-*.counts"))) == 2
    assert sorted(r["seconds"] for r in read_counts(tmp_path)) == [1.0, 2.0]


def test_a_folder_gone_counts_in_memory_and_the_call_goes_on(tmp_path: Path) -> None:
    counts = CountsFile(tmp_path / "reported-and-removed", 6)
    for _ in range(3):
        counts.add("a", "rapidbleu", 1.0)  # no error reaches the program's call
    assert read_counts(tmp_path) == []
