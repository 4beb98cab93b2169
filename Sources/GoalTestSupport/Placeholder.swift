// GoalTestSupport: filled by issue 5 (see DESIGN.md "Layout").
