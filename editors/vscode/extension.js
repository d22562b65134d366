// SPDX-License-Identifier: BSD-2-Clause-Patent
// The whole extension: start `dslc lsp` (found on PATH) for dslc documents.
'use strict';
const { LanguageClient } = require('vscode-languageclient/node');

let client;

exports.activate = function activate() {
  client = new LanguageClient(
    'dslc',
    'dslc',
    { command: 'dslc', args: ['lsp'] },
    { documentSelector: [{ language: 'dslc' }] }
  );
  return client.start();
};

exports.deactivate = function deactivate() {
  return client ? client.stop() : undefined;
};
