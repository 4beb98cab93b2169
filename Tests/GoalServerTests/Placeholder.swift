import Testing
@Test func GoalServerTestsPlaceholder() {}
