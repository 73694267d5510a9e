#!/usr/bin/env bats
# tests/batslint.sh on a small file (batslint.fixture): it names the
# negations that assert nothing, and no others.

@test "a negation that is not a test's last command is named; heredocs, lists and || false are not" {
	cd "$BATS_TEST_TMPDIR"
	cp "$BATS_TEST_DIRNAME/batslint.fixture" x.bats
	run sh "$BATS_TEST_DIRNAME/batslint.sh" x.bats
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf 'x.bats:2\nx.bats:20\nx.bats:22')" ]
}
