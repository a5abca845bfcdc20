-- Port Royal: the later edition of Merchants of the Caribbean, as a variant
-- over `caribbean` (ruling C10, docs/rules/caribbean.md):
--   * 12 influence ends the game (the round is finished, as in C9);
--   * no expedition is needed to end the game or to win;
--   * the tax cards marked "fewest influence" give their coin to the
--     player(s) with the fewest influence (those marked "most swords" keep C5).
-- docs/rules/caribbean.md, "Port Royal".

return {
  variant = true,
  name = "port_royal",
  title = "Port Royal",
  base = "caribbean",
  summary = "Port Royal edition of Merchants of the Caribbean: 12 influence, no expedition needed (C10)",
  options = {
    end_influence = { default = 12, type = "integer", min = 1,
                      doc = "influence that ends the game (C10)" },
  },
  apply = function(R, opts)
    R.title = "Port Royal"
    R.summary = "Merchants of the Caribbean, Port Royal edition (C10)"
    R.data.end_influence = opts.end_influence
    R.data.expedition_to_end = false
    R.data.expedition_to_win = false
    R.data.tax_rule["fewest influence"] = "influence"
    R.prepare(R)          -- rebind the base script to this copy of the rule set
  end,
}
