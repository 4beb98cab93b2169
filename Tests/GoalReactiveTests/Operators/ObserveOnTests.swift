import Dispatch
import GoalTestSlots
import Testing

@testable import GoalReactive

@Suite("observe(on:), start(on:)", .slotted)
struct ObserveOnTests {
    @Test func observeOnDeliversEveryEventThroughTheScheduler() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let log = record(signal.observe(on: scheduler))
        input.send(value: 1)
        input.send(value: 2)
        input.sendCompleted()
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(log.all == ["VALUE 1", "VALUE 2", "COMPLETED"])
    }

    @Test func observeOnDropsQueuedValuesWhenDisposedAndInterruptsUpstream() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, Never>()
        let (log, disposable) = record(probe.producer.observe(on: scheduler))
        probe.last.send(value: 1)
        disposable.dispose()
        scheduler.run()
        #expect(log.all == ["INTERRUPTED"])
        #expect(probe.endedStarts == 1)
    }

    @Test func observeOnAQueueSchedulerDeliversOnItsQueueInOrder() async {
        let scheduler = QueueScheduler(name: "ObserveOnTests")
        let key = DispatchSpecificKey<Bool>()
        scheduler.queue.setSpecific(key: key, value: true)
        let onQueue = Log<Bool>()
        let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            let collected = Log<Int>()
            SignalProducer<Int, Never>(0..<50)
                .observe(on: scheduler)
                .start { event in
                    onQueue.append(DispatchQueue.getSpecific(key: key) == true)
                    switch event {
                    case let .value(value): collected.append(value)
                    default: continuation.resume(returning: collected.all)
                    }
                }
        }
        #expect(values == Array(0..<50))
        #expect(onQueue.all.allSatisfy { $0 })
    }

    @Test func startOnRunsTheStartHandlerThroughTheScheduler() {
        let scheduler = TestScheduler()
        let started = Log<String>()
        let producer = SignalProducer<Int, Never> { observer, _ in
            started.append("started")
            observer.send(value: 1)
            observer.sendCompleted()
        }
        let (log, _) = record(producer.start(on: scheduler))
        #expect(started.all.isEmpty)
        #expect(log.all.isEmpty)
        scheduler.advance()
        #expect(started.all == ["started"])
        #expect(log.all == ["VALUE 1", "COMPLETED"])
    }

    @Test func disposingBeforeTheSchedulerRanCancelsTheStart() {
        let scheduler = TestScheduler()
        let probe = ProducerProbe<Int, Never>()
        let (log, disposable) = record(probe.producer.start(on: scheduler))
        disposable.dispose()
        scheduler.run()
        #expect(probe.starts == 0)
        #expect(log.all == ["INTERRUPTED"])
    }
}
