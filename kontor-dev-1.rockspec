-- kontor-dev-1.rockspec: the Lua module (require "kontor": the C module
-- kontor.core, the engine's Lua files and the rule sets) for LuaRocks.
-- From the source tree, into a tree of your own (docs/module.md):
--   luarocks --lua-version=5.4 --tree=$HOME/kontor-rocks make kontor-dev-1.rockspec
-- It builds with this Makefile (make module, make install-module), so it
-- needs what `make` needs: a C compiler, pkg-config, liblua5.4-dev and
-- libjansson-dev (sh .ci/deps); it fetches nothing.
rockspec_format = "3.0"
package = "kontor"
version = "dev-1"
source = {
   url = "git+file://.",   -- luarocks make builds the tree it is run in
}
description = {
   summary = "A scriptable rules engine for card and board games, as a Lua 5.4 module",
   detailed = [[
The Kontor engine as require "kontor": rule sets as sandboxed Lua scripts
(Sea Merchants, Merchants of the Caribbean, Merchants of the Old World and
their variants), games with undo, save, load and replay, simulations and
bots. The kontor program itself is built with make.]],
   license = "see the source tree",
}
dependencies = {
   "lua >= 5.4, < 5.5",
}
build = {
   type = "make",
   build_target = "module",
   -- the rule sets stay in the rock's own folder; the module is told where
   build_variables = {
      CFLAGS = "-O2 -g",
      DATADIR = "$(PREFIX)/share/kontor",
   },
   install_target = "install-module",
   install_variables = {
      PREFIX = "$(PREFIX)",
      LUA_MODDIR = "$(LIBDIR)",
      LUA_SHAREDIR = "$(LUADIR)",
   },
}
