/* The game's two sounds, made with Web Audio (nothing is loaded): a short
 * click for a tile played, three rising notes for a hand won.
 *   window.dominoSound.play("click" | "win")
 * Test hooks on <html>: data-audio="1" once an AudioContext exists,
 * data-sounds (how many were made), data-last-sound. Sound never breaks the
 * game: every failure is a console warning. */
(function () {
  "use strict";
  var ctx = null, made = 0;
  var html = document.documentElement;
  var NOTES = {
    click: { type: "square", peak: 0.12, notes: [[1500, 0, 0.04]] },
    win: { type: "triangle", peak: 0.2, notes: [[523.25, 0, 0.14], [659.25, 0.12, 0.14], [783.99, 0.24, 0.3]] }
  };
  function play(kind) {
    try {
      var spec = NOTES[kind] || NOTES.click;
      if (!ctx) {
        var Ctor = window.AudioContext || window.webkitAudioContext;
        if (!Ctor) return;
        ctx = new Ctor();
        html.dataset.audio = "1";
      }
      if (ctx.state === "suspended") ctx.resume();
      var now = ctx.currentTime;
      spec.notes.forEach(function (n) {
        var osc = ctx.createOscillator(), gain = ctx.createGain();
        osc.type = spec.type;
        osc.frequency.value = n[0];
        gain.gain.setValueAtTime(0.0001, now + n[1]);
        gain.gain.exponentialRampToValueAtTime(spec.peak, now + n[1] + 0.004);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + n[1] + n[2]);
        osc.connect(gain);
        gain.connect(ctx.destination);
        osc.start(now + n[1]);
        osc.stop(now + n[1] + n[2] + 0.02);
      });
      html.dataset.lastSound = kind;
      made += 1;
      html.dataset.sounds = String(made);
    } catch (e) {
      if (window.console) console.warn("domino: sound failed: " + e);
    }
  }
  window.dominoSound = { play: play };
})();
