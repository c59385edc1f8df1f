// The official MCP client (@modelcontextprotocol/sdk) drives
// `animsmith model serve --mcp` over StdioClientTransport: it initializes,
// lists the tools (each with an object inputSchema), opens a document,
// applies a batch, pages an inspection by next_offset, undoes, compiles,
// and sees an engine refusal come back as a tool result with isError.
// usage: node model_session.mjs SDK_DIR ANIMSMITH OUT.glb
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [sdkDir, animsmith, outGlb] = process.argv.slice(2);
if (!sdkDir || !animsmith || !outGlb || sdkDir.startsWith("-")) {
    console.log("usage: node model_session.mjs SDK_DIR ANIMSMITH OUT.glb");
    process.exit(sdkDir === "--help" || sdkDir === "-h" ? 0 : 2);
}
const sdk = (p) => pathToFileURL(join(sdkDir, "node_modules/@modelcontextprotocol/sdk/dist/esm", p)).href;
const { Client } = await import(sdk("client/index.js"));
const { StdioClientTransport } = await import(sdk("client/stdio.js"));

let failed = 0;
const check = (cond, what) => {
    if (!cond) {
        failed++;
        console.log(`FAIL ${what}`);
    }
    return cond;
};

const transport = new StdioClientTransport({ command: animsmith, args: ["model", "serve", "--mcp"], stderr: "inherit" });
const client = new Client({ name: "animsmith-test", version: "1.0.0" });
await client.connect(transport);
const info = client.getServerVersion();
check(info && info.name === "animsmith", `serverInfo names animsmith (got ${JSON.stringify(info)})`);
check(client.getServerCapabilities()?.tools !== undefined, "the server declares the tools capability");

const expected = ["model_open", "model_apply", "model_inspect", "model_history", "model_job", "model_cancel",
    "model_close", "model_compile", "model_compile_preview", "model_publish", "model_revisions", "world_api"];
const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
check(JSON.stringify(names) === JSON.stringify(expected), `tools/list gives ${names.join(", ")}`);
for (const t of tools) {
    check(t.inputSchema && t.inputSchema.type === "object", `${t.name} has an object inputSchema`);
    check(typeof t.description === "string" && t.description.length > 0, `${t.name} has a description`);
}
const apply = tools.find((t) => t.name === "model_apply");
check(apply && apply.inputSchema.properties && "operations" in apply.inputSchema.properties,
    "model_apply's inputSchema describes operations");

// Every inputSchema stands alone: no reference into a document it left.
check(!JSON.stringify(tools).includes('"$ref"'), "no inputSchema holds a dangling $ref");

const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    if (!check(r.isError === false, `${name} succeeds: ${JSON.stringify(r).slice(0, 400)}`))
        throw new Error(`${name} failed`);
    const text = JSON.parse(r.content[0].text);
    check(JSON.stringify(text) === JSON.stringify(r.structuredContent), `${name}: text and structuredContent agree`);
    return r.structuredContent;
};

try {
    // The tools are the engine's method schemas, not a copy that can drift.
    const api = await call("world_api", {});
    for (const t of tools) {
        const method = expected.includes(t.name) ? t.name.replace("_", ".") : null;
        const m = api.methods[method];
        check(m && m.description === t.inputSchema.description &&
            JSON.stringify(Object.keys(m.properties)) === JSON.stringify(Object.keys(t.inputSchema.properties)),
            `${t.name}'s inputSchema is world.api's ${method} params`);
    }
    const opNames = apply.inputSchema.properties.operations.items.oneOf.map((o) => o.properties.op.const);
    check(opNames.includes("cube") && opNames.includes("paint_texture"), `model_apply lists the operations (${opNames.length})`);

    let { head } = await call("model_open", { document: "bot" });
    check(head.generation === "0", "a new document is at generation 0");
    const applied = await call("model_apply", {
        document: "bot", request_id: "body", expected: head,
        operations: [{ op: "cube", object: "body", size: [0.7, 1.0, 0.4] },
            { op: "cylinder", object: "arm", radius: 0.08, height: 0.8, segments: 12 }],
    });
    check(applied.replayed === false && applied.results.length === 2, "the batch applied with two result rows");
    const before = head;
    head = applied.head;

    let offset = 0, seen = 0, total = -1;
    for (let guard = 0; offset !== null && guard < 1000; guard++) {
        const page = await call("model_inspect", { document: "bot", object: "arm", domain: "vertices", offset, limit: 5 });
        check(page.offset === offset, `page at offset ${offset}`);
        total = page.total;
        seen += page.items.length;
        offset = page.next_offset;
    }
    check(seen === total && total > 0, `every vertex paged (${seen} of ${total})`);

    const refused = await client.callTool({ name: "model_apply", arguments: {
        document: "bot", request_id: "stale", expected: before, operations: [{ op: "cube", object: "x", size: [1, 1, 1] }] } });
    check(refused.isError === true, "a stale head is a tool result with isError");
    check(/stale_head/.test(refused.content?.[0]?.text ?? ""), "the refusal names stale_head");

    const undone = await call("model_history", { document: "bot", expected: head, action: "undo" });
    check(undone.head.content === before.content, "undo restores the empty document's content hash");
    check(Number(undone.head.generation) > Number(head.generation), "undo advances the generation");
    const redone = await call("model_history", { document: "bot", expected: undone.head, action: "redo" });
    head = redone.head;

    const compiled = await call("model_compile", { document: "bot", expected: head });
    if (check(typeof compiled.glb === "string", "model_compile returns the GLB as base64")) {
        const bytes = Buffer.from(compiled.glb, "base64");
        check(bytes.subarray(0, 4).toString() === "glTF", "the GLB starts with glTF");
        writeFileSync(outGlb, bytes);
    }
    await call("model_close", { document: "bot", expected: head });

    let unknown = null;
    try {
        await client.callTool({ name: "no_such_tool", arguments: {} });
    } catch (e) {
        unknown = e;
    }
    check(unknown && unknown.code === -32602, `an unknown tool is JSON-RPC -32602 (got ${unknown && unknown.code})`);
} catch (e) {
    check(false, `session: ${e && e.stack ? e.stack : e}`);
}
await client.close();
console.log(failed ? `${failed} expectation(s) failed` : "the MCP SDK client drove a whole session");
process.exit(failed ? 1 : 0);
