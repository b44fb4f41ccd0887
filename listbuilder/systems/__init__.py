"""One module per rule system: its data schema, costs, limits and catalog building."""
