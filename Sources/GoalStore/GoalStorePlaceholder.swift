enum GoalStorePlaceholder {}
