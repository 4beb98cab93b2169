// Placeholder so the package resolves before GoalReactive has sources; delete once real files exist.
enum GoalReactivePlaceholder {}
