--[[ dbcore_referee.lua: a Tabletop Simulator client of the dbcore referee.

Start the referee on the player's machine:   dbcore serve --http --port 7878
then, in a TTS Global script:

    local Referee = require("dbcore_referee")      -- or paste this file above your script
    local ref = Referee.new({ url = "http://127.0.0.1:7878" })
    ref:health(function(up, why)
        if not up then broadcastToAll("Referee offline: " .. why) end
    end)
    ref:create(setup, function(battle, err) ... end)
    ref:apply({ action = "roll_pips", die = 4 }, function(result, err) ... end)

Every call is asynchronous: TTS's WebRequest.custom answers through a callback, and a call
that has no answer after `timeout` seconds is abandoned and reported as
{ offline = true, message = "..." }. A refusal of the rules arrives as an error table with
`code` (-32003), `message` and `data` (dbcore's code, rule section and detail). The module
keeps the battle id and its revision and sends the revision with every apply, so a second
table tool moving first is reported as a stale revision (-32002) rather than applied twice.

Positions are sent and received in the `tts` frame: inches on the x/z plane, heading
clockwise from +z (see `hello`). Nothing about the rules is decided here.
]]

local Referee = {}
Referee.__index = Referee

--- A referee client. opts: url (default "http://127.0.0.1:7878"), timeout (seconds, default 5),
--- units_per_bw (inches a base width, default the server's 40 mm), and for running outside TTS
--- the stand-ins web (WebRequest), json (JSON) and wait (Wait).
function Referee.new(opts)
    opts = opts or {}
    local self = setmetatable({}, Referee)
    self.url = opts.url or "http://127.0.0.1:7878"
    self.timeout = opts.timeout or 5
    self.web = opts.web or WebRequest
    self.json = opts.json or JSON
    self.wait = opts.wait or Wait
    self.frame = { preset = "tts", units_per_bw = opts.units_per_bw }
    self.next_id = 0
    self.battle = nil
    self.revision = nil
    return self
end

-- Send one request; `done(response_text_or_nil, error_text_or_nil)` is called exactly once.
function Referee:_send(method, path, body, done)
    local finished = false
    local function finish(text, err)
        if finished then return end
        finished = true
        done(text, err)
    end
    local headers = { ["Content-Type"] = "application/json" }
    if method == "GET" then headers = {} end
    self.web.custom(self.url .. path, method, true, body or "", headers, function(req)
        if req.is_error then
            finish(nil, req.error or "request failed")
        elseif req.response_code ~= nil and req.response_code >= 400 then
            finish(nil, "HTTP " .. tostring(req.response_code) .. ": " .. tostring(req.text))
        else
            finish(req.text, nil)
        end
    end)
    if self.wait and self.wait.time then
        self.wait.time(function()
            finish(nil, "no answer within " .. self.timeout .. " s")
        end, self.timeout)
    end
end

--- Is the referee running? done(true) or done(false, why).
function Referee:health(done)
    self:_send("GET", "/health", nil, function(text, err)
        if err then return done(false, "referee offline (" .. err .. ")") end
        local ok, v = pcall(self.json.decode, text)
        if ok and type(v) == "table" and v.status == "ok" then return done(true) end
        done(false, "referee offline (unexpected answer to /health)")
    end)
end

--- One JSON-RPC call: done(result) or done(nil, error) where error is the JSON-RPC error table,
--- or { offline = true, message = ... } when the referee does not answer.
function Referee:call(method, params, done)
    self.next_id = self.next_id + 1
    local body = self.json.encode({ jsonrpc = "2.0", id = self.next_id, method = method, params = params or {} })
    self:_send("POST", "/rpc", body, function(text, err)
        if err then return done(nil, { offline = true, message = "referee offline: " .. err }) end
        local ok, v = pcall(self.json.decode, text)
        if not ok or type(v) ~= "table" then
            return done(nil, { offline = true, message = "referee sent something that is not JSON" })
        end
        if v.error ~= nil and type(v.error) == "table" then return done(nil, v.error) end
        done(v.result)
    end)
end

--- Start a battle from a set-up (dbcore's JSON, positions in the tts frame).
function Referee:create(setup, done)
    self:call("battle.create", { setup = setup, frame = self.frame }, function(r, err)
        if r then
            self.battle, self.revision = r.battle, r.revision
        end
        done(r, err)
    end)
end

--- What may be done now (dice awaited, movers and their cost, shots, combats).
function Referee:legal(done)
    self:call("battle.legal", { battle = self.battle }, done)
end

--- Would this action be legal? done({ legal = true, events = ... }) or ({ legal = false, refusal = ... }).
function Referee:check(action, done)
    self:call("battle.check", { battle = self.battle, action = action }, done)
end

--- Apply an action at the revision this client last saw; the events come back.
function Referee:apply(action, done)
    self:call("battle.apply", { battle = self.battle, revision = self.revision, action = action }, function(r, err)
        if r then self.revision = r.revision end
        if err and err.code == -32002 and type(err.data) == "table" then
            -- Someone else moved: remember where the battle is, let the mod refresh its table.
            self.revision = err.data.revision
        end
        done(r, err)
    end)
end

--- Where everything stands (element poses in the tts frame).
function Referee:state(done)
    self:call("battle.state", { battle = self.battle }, function(r, err)
        if r then self.revision = r.revision end
        done(r, err)
    end)
end

return Referee
