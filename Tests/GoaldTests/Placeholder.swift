import Testing
@Test func GoaldTestsPlaceholder() {}
