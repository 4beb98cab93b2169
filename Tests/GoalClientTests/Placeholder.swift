import Testing
@Test func GoalClientTestsPlaceholder() {}
