import Foundation
import GoalTestSlots
import Testing

@testable import GoalTestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("PortReservation: ports outside the ephemeral range, one holder at a time", .slotted)
struct PortReservationTests {
    @Test("reserved ports are distinct and lie outside the kernel's ephemeral range")
    func outsideTheEphemeralRange() throws {
        let ephemeral = PortReservation.ephemeralRange()
        let reservations = try (0..<20).map { _ in try PortReservation() }
        #expect(Set(reservations.map(\.port)).count == reservations.count)
        for reservation in reservations {
            #expect(!ephemeral.contains(reservation.port), "\(reservation) is in \(ephemeral)")
        }
    }

    @Test("the window: below the ephemeral range, else above it")
    func window() {
        #expect(PortReservation.window(ephemeral: 32_768...60_999) == 20_000..<32_000)
        #expect(PortReservation.window(ephemeral: 25_000...60_999) == 20_000..<25_000)
        #expect(PortReservation.window(ephemeral: 10_000...50_000) == 50_001..<65_536)
        #expect(PortReservation.window(ephemeral: 1_024...65_535).isEmpty)
    }

    @Test("the port's lock file is held until the reservation is released")
    func lockHeldUntilReleased() throws {
        var reservation: PortReservation? = try PortReservation()
        let port = try #require(reservation?.port)
        let other = open("\(PortReservation.directory)/\(port).lock", O_RDONLY | O_CLOEXEC)
        try #require(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "another holder cannot lock it")
        reservation = nil
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0, "released with the reservation")
    }
}
