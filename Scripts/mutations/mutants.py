"""Deliberate bugs that look like real regressions, each with the tests that must catch it.

Each mutant replaces `old` by `new` in `file` (every occurrence; `old` must occur at least once, so a mutant whose
code has moved fails the run instead of passing unnoticed), and `tests` is the `swift test --filter` that must fail.
"""

MUTANTS = [
    {
        "name": "deadline ignored by URLSession's completion-handler path (cancelling the task cancels nothing)",
        "file": "Sources/Courier/Transport/URLSessionTransport.swift",
        "old": "      } onCancel: {\n        cancel()\n      }",
        "new": "      } onCancel: {\n      }",
        "tests": "URLSessionDeadlineTests",
    },
    {
        "name": "deadline ignored by the timer (due deadlines never expire)",
        "file": "Sources/Courier/Pipeline/DeadlineTimer.swift",
        "old": "for entry in due.sorted(by: { $0.due < $1.due }) { entry.expire?() }",
        "new": "_ = due",
        "tests": "DeadlineTimerTests|DeadlineCancellationTests",
    },
    {
        "name": "deadline fired 5 s late",
        "file": "Sources/Courier/Pipeline/DeadlineTimer.swift",
        "old": "let due = now + min(max(timeout, 0), 1e9)",
        "new": "let due = now + min(max(timeout, 0), 1e9) + 5",
        "tests": "DeadlineTimerTests|DeadlineCancellationTests|URLSessionDeadlineTests|CourierTests.DeadlineTests",
    },
    {
        "name": "deadline fired 2 ms early",
        "file": "Sources/Courier/Pipeline/DeadlineTimer.swift",
        "old": "let due = now + min(max(timeout, 0), 1e9)",
        "new": "let due = now + min(max(timeout, 0), 1e9) - 0.002",
        "tests": "DeadlineTimerTests|DeadlineCancellationTests",
    },
    {
        "name": "the shared pool blocked for 2 s once a short call's head arrived",
        "file": "Sources/Courier/Pipeline/Call.swift",
        "old": "        activity?.touch()\n",
        "new": "        activity?.touch()\n        if context.timeout <= 1 {\n"
        "          for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) { Task.detached { usleep(2_000_000) } }\n"
        "        }\n",
        "tests": "TransportConformanceTests",
    },
    {
        "name": "the conformance kit forgives a blocked shared pool",
        "file": "Sources/CourierTesting/Conformance/TransportConformance.swift",
        "old": "var slack: Double { timingSlack + min(processStall, Self.stallAllowance) }",
        "new": "var slack: Double { timingSlack + max(processStall, poolStall) }",
        "tests": "ConformanceTimingTests",
    },
    {
        "name": "download progress not reported as chunks arrive",
        "file": "Sources/Courier/Body/BodyStream.swift",
        "old": "if let chunk { progress?.advance(by: chunk.count) }",
        "new": "_ = progress",
        "tests": "SmallBodyProgressTests",
    },
    {
        "name": "credentials kept across a cross-origin redirect",
        "file": "Sources/Courier/Redirects/RedirectStage.swift",
        "old": "for name in Self.credentialFields { next.headerFields[name] = nil }",
        "new": "_ = Self.credentialFields",
        "tests": "Redirect",
    },
    {
        "name": "a cache entry served for a minute past its freshness",
        "file": "Sources/Courier/Cache/Freshness.swift",
        "old": "var isFresh: Bool { lifetime > age }",
        "new": "var isFresh: Bool { lifetime + 60 > age }",
        "tests": "CacheSemanticsTests|CacheFieldRuleTests",
    },
    {
        "name": "a POST without an Idempotency-Key retried",
        "file": "Sources/Courier/Retry/RetryInterceptor+Delays.swift",
        "old": "idempotentMethods.contains(request.method) || request.headerFields",
        "new": "true || request.headerFields",
        "tests": "RetryTests",
    },
    {
        "name": "the outbox sends each attempt with a new Idempotency-Key",
        "file": "Sources/CourierOutbox/Outbox+Requests.swift",
        "old": 'endpoint.header(Self.idempotencyKey, "\\"\\(request.idempotencyKey)\\"")',
        "new": 'endpoint.header(Self.idempotencyKey, "\\"\\(UUID().uuidString)\\"")',
        "tests": "OutboxTests|OutboxEndToEndTests|OutboxCrashTests",
    },
    {
        "name": "the values an item binds are never written into it",
        "file": "Sources/CourierOutbox/SQLiteOutboxStore.swift",
        "old": "return try bind(dependantsOf: id, to: response, at: now, in: db)",
        "new": "return RecordResult()",
        "tests": "OutboxBindingTests",
    },
    {
        "name": "a drain skips the wait a server asked for with Retry-After",
        "file": "Sources/CourierOutbox/Outbox+Delivery.swift",
        "old": "!forced || (candidate.heldUntil.map { $0 > now } ?? false)",
        "new": "!forced",
        "tests": "OutboxAppTests",
    },
    {
        "name": "a delivered item's body file is left behind",
        "file": "Sources/CourierOutbox/Outbox+Delivery.swift",
        "old": "if let bodyFile { bodyFiles?.remove(bodyFile) }",
        "new": "_ = bodyFile",
        "tests": "OutboxBodyFileTests",
    },
    {
        "name": "a lane goes on while its item's background upload may still be under way",
        "file": "Sources/CourierOutbox/Outbox+Delivery.swift",
        "old": "if candidate.handedOff { return .waits }",
        "new": "_ = candidate.handedOff",
        "tests": "OutboxBackgroundUploadTests",
    },
    {
        "name": "a worker takes a lane another worker holds (the lease ignored)",
        "file": "Sources/CourierOutboxPostgres/PostgresOutboxStore.swift",
        "old": "var mayTake: String { \"(l.holder IS NULL OR l.holder = '\\(worker)' OR l.lease_until < clock_timestamp())\" }",
        "new": "var mayTake: String { \"true\" }",
        "tests": "PostgresFleetTests/fourWorkerProcesses",
    },
    {
        "name": "an enqueue wakes no idle worker (no NOTIFY)",
        "file": "Sources/CourierOutboxPostgres/PostgresOutboxStore.swift",
        "old": "CROSS JOIN (SELECT pg_notify(\\(names.channel), '')) AS woken",
        "new": "CROSS JOIN (SELECT 1) AS woken",
        "tests": "PostgresOutboxTests/anEnqueueOnAnotherConnectionWakesAnIdleWorkerThroughNotify",
    },
    {
        "name": "a worker whose lease was taken still records its attempt (no fence)",
        "file": "Sources/CourierOutboxPostgres/PostgresOutboxStore+Recording.swift",
        "old": "AND \\(unescaped: mayTake) RETURNING 1",
        "new": "RETURNING 1",
        "tests": "PostgresOutboxTests/aWorkerWhoseLeaseEndedAndWasTakenRecordsNothing",
    },
    {
        "name": "a record on a lane no worker holds is refused (a deadline's dead letter spins)",
        "file": "Sources/CourierOutboxPostgres/PostgresOutboxStore+Recording.swift",
        "old": "WHERE l.name = \\(lane) AND \\(unescaped: mayTake) RETURNING 1",
        "new": "WHERE l.name = \\(lane) AND l.holder = '\\(worker)' RETURNING 1",
        "tests": "PostgresOutboxTests/anItemPastItsDeadlineInALaneNoOneHoldsBecomesADeadLetter",
    },
]
