// Renders /openapi.json as a plain page (no third-party viewer, nothing fetched from elsewhere).
"use strict";
(async function () {
  const box = document.getElementById("endpoints");
  const spec = await (await fetch("/openapi.json")).json();
  box.replaceChildren();
  const add = (parent, tag, text, cls) => {
    const n = document.createElement(tag);
    if (text !== undefined) n.textContent = text;
    if (cls) n.className = cls;
    parent.appendChild(n);
    return n;
  };
  const schemas = (spec.components && spec.components.schemas) || {};
  const ref = (s) => (s && s.$ref ? schemas[s.$ref.split("/").pop()] : s);
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const sec = add(box, "section", undefined, "panel");
      add(sec, "h2", `${method.toUpperCase()} ${path}`);
      if (op.summary) add(sec, "p", op.summary, "muted");
      if (op.description) add(sec, "pre", op.description, "small");
      const params = op.parameters || [];
      if (params.length) {
        const ul = add(sec, "ul");
        for (const p of params) {
          const s = p.schema || {};
          add(ul, "li", `${p.name} (${p.in}${p.required ? ", required" : ""}): ${p.description || s.type || ""}` +
            (s.default !== undefined ? ` [default ${JSON.stringify(s.default)}]` : ""));
        }
      }
      const body = op.requestBody && op.requestBody.content && op.requestBody.content["application/json"];
      if (body) {
        let s = ref(body.schema);
        if (s && s.anyOf) s = ref(s.anyOf.find((x) => x.$ref) || s.anyOf[0]);
        if (s) {
          add(sec, "p", "JSON body:" + (s.description ? " " + s.description : ""));
          const ul = add(sec, "ul");
          for (const [name, f] of Object.entries(s.properties || {})) {
            const kinds = f.enum ? f.enum.join(" | ") : f.type || (f.anyOf ? f.anyOf.map((x) => x.enum ? x.enum.join(" | ") : x.type || "object").join(" | ") : "");
            add(ul, "li", `${name}: ${kinds}${f.description ? " — " + f.description : ""}`);
          }
        }
      }
    }
  }
})();
