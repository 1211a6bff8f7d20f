"""Game art drawn with Pillow from the same data the adjudicator reads.

- `board.render_board(game, scale)`: the map board (terrain, hexsides, roads, places, areas,
  labels, title, legend), on the module's own grid; its drawing recorded once and drawn in bands of rows
  (`window.Recording`), or a window of it alone (`window=`);
- `counters.render_unit` / `counters.render_marker`: both faces of every counter;
- `charts.render_charts(game)`: CRT, terrain effects, schedules, tracks, tables;
- `ink`: the house font, colours, contrast, text measuring and wrapping they all draw with.
"""
