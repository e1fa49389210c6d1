// Validates every .gltf and .glb file in a folder with the Khronos glTF
// Validator and fails on any error (warnings and hints are printed only).
// Usage: node validate-gltf.cjs PATH/TO/node_modules/gltf-validator FOLDER
"use strict";
const fs = require("fs");
const path = require("path");

const [validatorPath, folder] = process.argv.slice(2);
if (!validatorPath || !folder) {
    console.error("usage: node validate-gltf.cjs VALIDATOR_MODULE FOLDER");
    process.exit(2);
}
const validator = require(path.resolve(validatorPath));
const SEVERITIES = ["error", "warning", "info", "hint"];

async function validate(file) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) =>
            fs.promises.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))),
    });
    const issues = report.issues;
    console.log(
        `${path.basename(file)}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
            `${issues.numInfos} infos, ${issues.numHints} hints`
    );
    for (const message of issues.messages) {
        if (message.severity <= 1) {
            console.log(`  ${SEVERITIES[message.severity]} ${message.code} at ${message.pointer}: ${message.message}`);
        }
    }
    return issues.numErrors;
}

(async () => {
    const files = fs
        .readdirSync(folder)
        .filter((name) => /\.(gltf|glb)$/i.test(name))
        .sort()
        .map((name) => path.join(folder, name));
    if (files.length === 0) {
        console.error(`no .gltf or .glb files in ${folder}`);
        process.exit(1);
    }
    let errors = 0;
    for (const file of files) {
        errors += await validate(file);
    }
    console.log(`${files.length} files, ${errors} errors`);
    process.exit(errors === 0 ? 0 : 1);
})().catch((error) => {
    console.error(error);
    process.exit(1);
});
