/// A page shaped like wsdot.com's mountain pass pages today: the application's shell with an
/// empty report that a script fills in after load from a `fetch` to the same server, as the
/// real site does. A plain GET sees no report; only a browser does. Used by WSDOT's render
/// tests and the rendering benchmark, so both exercise the same page.
public enum ScriptFilledPassPage {
    /// The page; its script fetches `reportPath`, a JSON array of `[label, value]` rows, and
    /// adds one `div.condition` per row to `.column-1`.
    public static func html(reportPath: String) -> String {
        #"""
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Mountain pass</title></head>
        <body><main id="index" data-v-app=""><div class="full-width column-container mountain-pass">
        <div class="column-1"><h2>Pass report</h2><!----><!----><!----></div></div></main>
        <script>
        fetch("\#(reportPath)").then(r => r.json()).then(rows => {
          const column = document.querySelector(".column-1");
          for (const [label, value] of rows) {
            const row = document.createElement("div"); row.className = "condition";
            const l = document.createElement("div"); l.className = "conditionLabel"; l.textContent = label;
            const v = document.createElement("div"); v.className = "conditionValue"; v.textContent = value;
            row.append(l, v); column.append(row);
          }
        });
        </script></body></html>
        """#
    }
}
