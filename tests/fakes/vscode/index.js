// A stand-in for the VS Code API: every property is a callable that returns another
// stand-in, so the language client runs up to where it starts its server.
'use strict';
function stub(name) {
  const f = function () { return stub(name + '()'); };
  return new Proxy(f, {
    get(t, p) {
      if (p === 'then') return undefined;            // not a promise
      if (p === Symbol.iterator) return function* () {};
      if (p === Symbol.toPrimitive) return () => name;
      if (p === 'length') return 0;
      if (p === 'dispose') return () => {};
      if (p === 'version') return '1.90.0';          // the engine the extension asks for (^1.75)
      return stub(name + '.' + String(p));
    },
    construct() { return stub('new ' + name); },
  });
}
module.exports = stub('vscode');
