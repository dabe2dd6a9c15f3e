// report.html's game viewer (viewer.rs writes each game's steps as JSON beside its heading).
// Knows no game: any view is drawn as fields, with cards and tiles as chips, and a view with a
// board of equal rows and a move list as a grid.
(function () {
  "use strict";

  // A patch (viewer.rs `patch`): [0, v] sets, [1, items...] appends, [2, {field: patch}] and
  // [3, {index: patch}] patch parts ([4] removes a field), [5, index, item, ...] inserts,
  // [6, index, ...] removes items.
  function apply(old, p) {
    var out, k, i;
    if (p[0] === 0) return p[1];
    if (p[0] === 1) return old.concat(p.slice(1));
    if (p[0] === 5 || p[0] === 6) {
      out = old.slice();
      if (p[0] === 5) for (i = 1; i < p.length; i += 2) out.splice(p[i], 0, p[i + 1]);
      else for (i = p.length - 1; i > 0; i--) out.splice(p[i], 1);
      return out;
    }
    out = p[0] === 2 ? Object.assign({}, old) : old.slice();
    for (k in p[1]) {
      if (p[1][k][0] === 4) delete out[k];
      else out[p[0] === 2 ? k : +k] = apply(old[p[0] === 2 ? k : +k], p[1][k]);
    }
    return out;
  }

  // Every step's views, rebuilt once from the patches.
  function rebuild(data) {
    var views = data.seats.map(function () { return null; });
    return data.frames.map(function (frame) {
      views = views.map(function (v, s) {
        var i = frame[1][s];
        return i === null ? v : apply(v, data.patches[i]);
      });
      return views;
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var CARD = /^([2-9TJQKA])([cdhs])$/;
  var TILE = /^([1-9][msp]|[ESWNCFP])$/;
  var MELD = /^([\[(])((?:[1-9][msp]|[ESWNCFP?])+)[\])]$/;

  function chip(text, tiles) {
    var m, c;
    if (tiles) {
      c = el("span", "chip tile " + (text === "?" ? "back" : /[msp]$/.test(text) ? text[1] : "z"), text === "?" ? "\u00a0" : text);
      c.setAttribute("data-tile", text);
      return c;
    }
    m = CARD.exec(text);
    c = el("span", "chip card " + m[2], (m[1] === "T" ? "10" : m[1]) + SUITS[m[2]]);
    c.setAttribute("data-card", text);
    return c;
  }

  // A string: a card or a tile as a chip, a set of tiles ("[1m2m3m]", "(????)") as a group.
  function text(s, tiles) {
    var m, g;
    if (tiles ? TILE.test(s) : CARD.test(s)) return chip(s, tiles);
    m = tiles && MELD.exec(s);
    if (m) {
      g = el("span", m[1] === "(" ? "meld closed" : "meld");
      g.title = s;
      m[2].match(/[1-9][msp]|[ESWNCFP?]/g).forEach(function (t) { g.appendChild(chip(t, true)); });
      return g;
    }
    return el("span", "", s);
  }

  // Any JSON value: lists inline (a list of objects one a line), objects as "field value".
  function value(v, tiles) {
    var out;
    if (v === null || v === undefined) return el("span", "none", "\u2013");
    if (typeof v === "string") return text(v, tiles);
    if (typeof v === "boolean") return el("span", "", v ? "yes" : "no");
    if (typeof v !== "object") return el("span", "", String(v));
    if (Array.isArray(v)) {
      if (v.length && v.every(function (x) { return x !== null && typeof x === "object" && !Array.isArray(x); })) {
        out = el("ol", "hist");
        v.forEach(function (x) { var li = el("li"); li.appendChild(value(x, tiles)); out.appendChild(li); });
        return out;
      }
      out = el("span", "list");
      if (!v.length) out.textContent = "\u2013";
      v.forEach(function (x) {
        var part = value(x, tiles);
        if (Array.isArray(x)) part.className += " meld";
        out.appendChild(part);
        out.appendChild(document.createTextNode(" "));
      });
      return out;
    }
    out = el("span", "obj");
    Object.keys(v).forEach(function (k) {
      out.appendChild(el("span", "key", k + " "));
      out.appendChild(value(v[k], tiles));
      out.appendChild(document.createTextNode(" "));
    });
    return out;
  }

  function fields(view, keys, tiles) {
    var table = el("table", "fields");
    keys.forEach(function (k) {
      var tr = el("tr"), td = el("td");
      tr.appendChild(el("th", "l", k));
      td.appendChild(value(view[k], tiles));
      tr.appendChild(td);
      table.appendChild(tr);
    });
    return table;
  }

  // A board of equal rows with a move list ("x,y"): stones numbered in move order.
  function isGrid(view) {
    return view && Array.isArray(view.board) && Array.isArray(view.moves) && view.board.length > 0 &&
      view.board.every(function (r) { return typeof r === "string" && r.length === view.board[0].length; });
  }

  function grid(view) {
    var order = {}, table = el("table", "grid"), last = view.moves[view.moves.length - 1];
    view.moves.forEach(function (m, i) { order[m] = i + 1; });
    view.board.forEach(function (row, y) {
      var tr = el("tr");
      row.split("").forEach(function (c, x) {
        var td = el("td"), at = x + "," + y;
        if (c !== ".") {
          td.className = "stone " + c + (at === last ? " last" : "");
          td.textContent = order[at] || "";
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    return table;
  }

  // Which fields are each seat's own (differ between seats at some step), which are one entry
  // per seat (lists as long as the table of numbers, flags or lists), and which are the table's.
  function shape(data, steps) {
    var seats = data.seats.length, keys = [], sample = {}, own = {};
    // Every field any view has at any step, in the order they first appear (a phase may add some).
    steps.forEach(function (views) {
      views.forEach(function (v) {
        Object.keys(v || {}).forEach(function (k) {
          if (!(k in sample)) {
            keys.push(k);
            sample[k] = v[k];
          }
          if (JSON.stringify(v[k]) !== JSON.stringify(views[0] && views[0][k])) own[k] = true;
        });
      });
    });
    var board = isGrid(steps[0][0]);
    var perSeat = keys.filter(function (k) {
      var v = sample[k];
      return !own[k] && seats > 1 && Array.isArray(v) && v.length === seats &&
        v.every(function (x) { return x === null || typeof x === "number" || typeof x === "boolean" || Array.isArray(x); });
    });
    return {
      tiles: "melds" in sample,
      grid: board,
      own: keys.filter(function (k) { return own[k]; }),
      perSeat: perSeat,
      shared: keys.filter(function (k) {
        return !own[k] && perSeat.indexOf(k) < 0 && !(board && (k === "board" || k === "moves"));
      })
    };
  }

  function seatTable(data, shape, views, acted, next) {
    var table = el("table", "seats"), head = el("tr");
    ["seat"].concat(shape.own, shape.perSeat).forEach(function (k) { head.appendChild(el("th", "l", k)); });
    table.appendChild(head);
    data.seats.forEach(function (name, s) {
      var tr = el("tr", (s === acted ? "acted " : "") + (s === next ? "to-act" : ""));
      tr.appendChild(el("td", "", name));
      shape.own.forEach(function (k) {
        var td = el("td");
        td.appendChild(value(views[s] && views[s][k], shape.tiles));
        tr.appendChild(td);
      });
      shape.perSeat.forEach(function (k) {
        var td = el("td");
        td.appendChild(value(views[0] && views[0][k] ? views[0][k][s] : null, shape.tiles));
        tr.appendChild(td);
      });
      table.appendChild(tr);
    });
    return table;
  }

  function Viewer(root, data) {
    this.root = root;
    this.data = data;
    this.steps = rebuild(data);
    this.shape = shape(data, this.steps);
    this.step = 0;
    this.build();
  }

  Viewer.prototype.build = function () {
    var self = this, bar = el("div", "bar");
    function button(label, title, to) {
      var b = el("button", "", label);
      b.type = "button";
      b.title = title;
      b.addEventListener("click", function () { self.go(to()); });
      bar.appendChild(b);
    }
    button("\u00ab first", "first step (Home)", function () { return 0; });
    button("\u2039 back", "back (Left)", function () { return self.step - 1; });
    button("forward \u203a", "forward (Right)", function () { return self.step + 1; });
    button("last \u00bb", "last step (End)", function () { return self.steps.length - 1; });
    this.slider = el("input");
    this.slider.type = "range";
    this.slider.min = 0;
    this.slider.max = this.steps.length - 1;
    this.slider.addEventListener("input", function () { self.go(+self.slider.value); });
    bar.appendChild(this.slider);
    this.counter = el("span", "counter");
    bar.appendChild(this.counter);
    this.stage = el("div", "stage");
    this.root.appendChild(bar);
    this.root.appendChild(this.stage);
    this.root.addEventListener("focus", function () { active = self; });
    this.root.addEventListener("click", function () { active = self; });
  };

  Viewer.prototype.go = function (step) {
    this.step = Math.max(0, Math.min(this.steps.length - 1, step));
    this.draw();
  };

  Viewer.prototype.draw = function () {
    var data = this.data, n = this.step, views = this.steps[n], shape = this.shape;
    var event = n > 0 ? data.events[n - 1] : null, next = data.frames[n][0], stage = this.stage;
    var line, each, parts;
    stage.textContent = "";
    this.root.setAttribute("data-step", n);
    this.slider.value = n;
    this.counter.textContent = " step " + n + " / " + (this.steps.length - 1);
    line = el("div", "event", event ? n + ". " + event[1] : "The deal");
    line.setAttribute("data-step", n);
    stage.appendChild(line);
    stage.appendChild(el("div", "next", next === null ? "Over. " + data.result : "Next to act: " + data.seats[next]));
    if (shape.grid) stage.appendChild(grid(views[0]));
    stage.appendChild(seatTable(data, shape, views, event ? event[0] : null, next));
    stage.appendChild(fields(views[0] || {}, shape.shared.filter(function (k) { return views[0] && k in views[0]; }), shape.tiles));
    each = el("details", "whole");
    each.appendChild(el("summary", "", "Each seat's whole view"));
    parts = el("div", "views");
    views.forEach(function (view, s) {
      var d = el("div");
      d.appendChild(el("h4", "", data.seats[s]));
      d.appendChild(fields(view || {}, Object.keys(view || {}), shape.tiles));
      parts.appendChild(d);
    });
    each.appendChild(parts);
    stage.appendChild(each);
    // A long history shows its latest entries.
    Array.prototype.forEach.call(stage.querySelectorAll("ol.hist"), function (ol) { ol.scrollTop = ol.scrollHeight; });
  };

  var viewers = [], active = null;
  Array.prototype.forEach.call(document.querySelectorAll(".viewer"), function (root) {
    var json = root.querySelector("script.viewer-data");
    if (json) viewers[+root.getAttribute("data-game")] = new Viewer(root, JSON.parse(json.textContent));
  });
  viewers.forEach(function (v) { v.draw(); });
  active = viewers.filter(Boolean)[0] || null;

  // "#game=K&step=N": game K at step N (the page's own link to a step, and the tests' way in);
  // "&alone" shows that game alone (a headless browser's screenshot does not follow a scroll).
  function fromHash() {
    var m = /game=(\d+)/.exec(location.hash), s = /step=(\d+)/.exec(location.hash), v;
    if (!m || !(v = viewers[+m[1]])) return;
    active = v;
    v.go(s ? +s[1] : 0);
    viewers.forEach(function (w) { if (w) w.root.classList.toggle("shown", w === v); });
    document.body.classList.toggle("alone", /alone/.test(location.hash));
    v.root.scrollIntoView();
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();

  document.addEventListener("keydown", function (e) {
    var to = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!active || e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (to) active.go(active.step + to);
    else if (e.key === "Home") active.go(0);
    else if (e.key === "End") active.go(active.steps.length - 1);
    else return;
    e.preventDefault();
  });
})();
