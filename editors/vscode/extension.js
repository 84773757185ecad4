// The dtc VS Code extension: starts `dtc lsp` over stdio for files in the `dtc` language.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function makeClient() {
  const config = vscode.workspace.getConfiguration("dtc");
  const command = config.get("server.command", "dtc");
  const args = config.get("server.args", ["lsp"]);
  const run = { command, args, transport: TransportKind.stdio };
  const serverOptions = { run, debug: run };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "dtc" },
      { scheme: "untitled", language: "dtc" },
    ],
    initializationOptions: { ruleDocsUrl: config.get("ruleDocsUrl") || undefined },
    synchronize: {
      // The linter's settings live in these files: changing one re-lints open adventures on save.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{dtc.toml,pyproject.toml}"),
    },
  };
  return new LanguageClient("dtc", "dtc", serverOptions, clientOptions);
}

async function start(context) {
  client = makeClient();
  try {
    await client.start();
  } catch (err) {
    const command = vscode.workspace.getConfiguration("dtc").get("server.command", "dtc");
    vscode.window.showErrorMessage(
      `dtc: could not start '${command} lsp' (${err.message || err}). ` +
        "Install dtc (pipx install . in a clone of dtc) or set dtc.server.command to its full path."
    );
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("dtc.restartServer", async () => {
      if (client) {
        await client.stop();
      }
      await start(context);
    })
  );
  await start(context);
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate };
