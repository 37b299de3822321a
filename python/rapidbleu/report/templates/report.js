// The report's behaviour: charts (Vega-Lite through vegaEmbed, inlined above), the sortable
// scores table, the n-gram pair menu, and paging/filtering of the segments. It only reads the
// page: system text is never turned into HTML here (textContent, not innerHTML).
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var PAGE = parseInt(document.getElementById("seg-list").getAttribute("data-page-size"), 10) || 10;

  // --- segments: paging and filtering ------------------------------------------------------
  var segs = Array.prototype.slice.call(document.querySelectorAll("#seg-list .seg"));
  var filterBox = document.getElementById("seg-filter");
  var pageLabel = document.getElementById("seg-page");
  var page = 0;
  var matching = segs;

  function applyFilter() {
    var q = (filterBox.value || "").trim().toLowerCase();
    if (!q) {
      matching = segs;
    } else if (/^#\d+$/.test(q)) {
      matching = segs.filter(function (el) { return el.id === "seg-" + q.slice(1); });
    } else {
      matching = segs.filter(function (el) { return el.textContent.toLowerCase().indexOf(q) >= 0; });
    }
  }
  function showPage() {
    var pages = Math.max(1, Math.ceil(matching.length / PAGE));
    page = Math.min(Math.max(page, 0), pages - 1);
    var shown = matching.slice(page * PAGE, (page + 1) * PAGE);
    segs.forEach(function (el) { el.hidden = shown.indexOf(el) < 0; });
    pageLabel.textContent = "Page " + (page + 1) + " of " + pages + " (" + matching.length +
      " segment" + (matching.length === 1 ? "" : "s") + ")";
  }
  function showSegment(index) {
    var el = document.getElementById("seg-" + (index + 1));
    if (!el) { return false; }
    filterBox.value = "";
    applyFilter();
    page = Math.floor(matching.indexOf(el) / PAGE);
    showPage();
    el.scrollIntoView({block: "start"});
    el.classList.add("flash");
    setTimeout(function () { el.classList.remove("flash"); }, 1500);
    return true;
  }
  filterBox.addEventListener("input", function () { applyFilter(); page = 0; showPage(); });
  document.getElementById("seg-prev").addEventListener("click", function () { page -= 1; showPage(); });
  document.getElementById("seg-next").addEventListener("click", function () { page += 1; showPage(); });
  window.addEventListener("hashchange", function () {
    var m = /^#seg-(\d+)$/.exec(location.hash);
    if (m) { showSegment(parseInt(m[1], 10) - 1); }
  });
  applyFilter();
  showPage();

  // --- the scores table: click a header to sort ---------------------------------------------
  var table = document.getElementById("scores-table");
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    th.tabIndex = 0;
    th.addEventListener("click", function () {
      var numeric = th.getAttribute("data-type") === "number";
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].getAttribute("data-sort"), y = b.cells[col].getAttribute("data-sort");
        var c = numeric ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });

  // --- n-gram differences: which system against the baseline --------------------------------
  var ngramMenu = document.getElementById("ngram-system");
  if (ngramMenu) {
    ngramMenu.addEventListener("change", function () {
      document.querySelectorAll(".ngram-pair").forEach(function (el) {
        el.hidden = el.getAttribute("data-system") !== ngramMenu.value;
      });
    });
  }

  // --- the reporting card -------------------------------------------------------------------
  document.getElementById("copy-card").addEventListener("click", function () {
    var box = document.getElementById("card-text");
    box.select();
    if (navigator.clipboard) { navigator.clipboard.writeText(box.value).catch(function () {}); }
  });

  // --- charts -------------------------------------------------------------------------------
  // Sentence scores travel as compact arrays; the rows Vega-Lite wants are built here once.
  function lineOf(el, selector) {
    var cell = el && el.querySelector(selector);
    var text = cell ? cell.textContent : "";
    return text.length > 160 ? text.slice(0, 157) + "…" : text;
  }
  function sentenceRows(k, pairs) {
    var scores = DATA.sentences[k], rows = [];
    for (var s = 0; s < scores.length; s++) {
      if (pairs && s === 0) { continue; }
      for (var i = 0; i < scores[s].length; i++) {
        var row = {s: s, name: DATA.systems[s], i: i, seg: "#" + (i + 1), v: scores[s][i]};
        if (pairs) {
          var el = document.getElementById("seg-" + (i + 1));
          row.b = scores[0][i];
          row.shown = el ? "listed below" : "other";
          row.ref = el ? lineOf(el, "tr.ref td.text") : "(not among the listed segments)";
          row.hyp = el ? lineOf(el, 'tr.out[data-system="' + s + '"] td.text') : "";
        }
        rows.push(row);
      }
    }
    return rows;
  }
  var rendered = 0, failed = 0;
  var charts = document.querySelectorAll(".chart[data-spec]");
  charts.forEach(function (el) {
    var spec = DATA.specs[parseInt(el.getAttribute("data-spec"), 10)];
    if (spec.usermeta && spec.usermeta.sentences !== undefined) {
      spec.datasets = {sentences: sentenceRows(spec.usermeta.sentences, !!spec.usermeta.pairs)};
    }
    vegaEmbed(el, spec, {mode: "vega-lite", actions: false, renderer: "svg"}).then(function (res) {
      if (spec.usermeta && spec.usermeta.pairs) {
        res.view.addEventListener("click", function (event, item) {
          if (item && item.datum && item.datum.i !== undefined) { showSegment(item.datum.i); }
        });
      }
      el.setAttribute("data-rendered", "1");
      rendered += 1;
      if (rendered + failed === charts.length) { document.body.setAttribute("data-charts", "done"); }
    }).catch(function (err) {
      failed += 1;
      el.textContent = "This chart could not be drawn: " + err;
      console.error(err);
      if (rendered + failed === charts.length) { document.body.setAttribute("data-charts", "done"); }
    });
  });
  if (charts.length === 0) { document.body.setAttribute("data-charts", "done"); }
})();
