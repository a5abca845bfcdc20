-- The house rules' payout (ruling H8).
--
-- The house rulebook says "only the cards delivered count", and its worked
-- example (1 fish in the market + 2 delivered = 3 coins per fish cube)
-- counts the market. The ruling takes the example as the default, which is
-- the base rule S8; count=delivered counts only the cards of this delivery.

return {
  variant = true,
  name = "delivered_payout",
  title = "Delivered payout",
  base = "sea_merchants",
  summary = "the house payout: by default the worked example (= S8); count=delivered pays per card delivered (H8)",
  replaces = { "the payout count" },
  options = {
    count = { default = "market", type = "string", values = { "market", "delivered" },
              doc = "'market': N = slots showing the product after the play (H8's default, S8); "
                 .. "'delivered': N = the cards delivered in this play" },
  },
  apply = function(R, opts)
    if opts.count == "delivered" then
      function R.rules.payout_count(g, p, slots)   -- H8 option
        return #slots
      end
    end
  end,
}
