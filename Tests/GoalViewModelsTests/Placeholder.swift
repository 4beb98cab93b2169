import Testing
@Test func GoalViewModelsTestsPlaceholder() {}
