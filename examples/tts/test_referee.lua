--[[ Runs dbcore_referee.lua outside Tabletop Simulator against a real `dbcore serve --http`.

    lua5.4 examples/tts/test_referee.lua URL SETUP.json

WebRequest, JSON and Wait are stood in for by LuaSocket and lua-cjson (Debian packages
lua-socket and lua-cjson): the stand-in WebRequest answers synchronously, so each callback has
run when the call returns. Prints "N passed, N failed" and exits non-zero on a failure.
]]

package.path = arg[0]:gsub("[^/]*$", "") .. "?.lua;" .. package.path

local http = require("socket.http")
local ltn12 = require("ltn12")
local cjson = require("cjson")
local Referee = require("dbcore_referee")

local url, setup_path = arg[1], arg[2]
assert(url and setup_path, "usage: test_referee.lua URL SETUP.json")

-- WebRequest.custom(url, method, download, data, headers, callback), over LuaSocket.
local timeout_s = 2
local web = {
    custom = function(u, method, _download, data, headers, callback)
        local chunks = {}
        local h = {}
        for k, v in pairs(headers) do h[k] = v end
        if method == "POST" then h["Content-Length"] = tostring(#data) end
        http.TIMEOUT = timeout_s
        local ok, code = http.request({
            url = u,
            method = method,
            headers = h,
            source = method == "POST" and ltn12.source.string(data) or nil,
            sink = ltn12.sink.table(chunks),
        })
        if not ok then
            callback({ is_error = true, error = tostring(code), is_done = true })
        else
            callback({ is_error = false, response_code = code, text = table.concat(chunks), is_done = true })
        end
    end,
}
-- TTS's JSON decodes null as nil; cjson as cjson.null, which the module never relies on.
local json = { encode = cjson.encode, decode = cjson.decode }
-- Answers are synchronous here, so the timeout never needs to fire.
local wait = { time = function(_fn, _s) end }

local passed, failed = 0, 0
local function check(name, cond, detail)
    if cond then
        passed = passed + 1
        print("ok   " .. name)
    else
        failed = failed + 1
        print("FAIL " .. name .. (detail and (": " .. tostring(detail)) or ""))
    end
end

local f = assert(io.open(setup_path))
local setup_text = f:read("a")
f:close()
local golden = cjson.decode(setup_text)
local setup = golden.record and golden.record.setup or golden

local ref = Referee.new({ url = url, web = web, json = json, wait = wait, units_per_bw = 1.0 })

ref:health(function(up, why) check("health says the referee runs", up, why) end)

ref:call("hello", { protocol = { 1 } }, function(r, err)
    check("hello speaks protocol 1", r and r.protocol == 1, err and err.message)
    check("hello offers the tts frame", r and r.frames and r.frames[2] == "tts")
end)

-- At 1 inch a BW, the set-up's BW positions are already inches, save that y is called z.
local function to_tts(v)
    if type(v) ~= "table" then return v end
    if v.x ~= nil and v.y ~= nil and (v.facing ~= nil or next(v, nil) ~= nil) then
        local keys = 0
        for _ in pairs(v) do keys = keys + 1 end
        if keys == 2 or (keys == 3 and v.facing ~= nil) then
            return { x = v.x, z = v.y, heading = v.facing }
        end
    end
    local out = {}
    for k, c in pairs(v) do out[k] = to_tts(c) end
    return out
end
local tts_setup = to_tts(setup)
-- cjson writes an empty table as {}, which is no list: give the table a road along its west edge
-- (far from every element) so that the feature list is not empty.
tts_setup.battlefield.features = {
    { road = { path = { { x = 0.5, z = 0.0 }, { x = 0.5, z = 15.0 } }, surface = "paved", width = 0.5 } },
}

ref:create(tts_setup, function(r, err)
    check("battle.create gives a battle at revision 0", r and r.revision == 0, err and err.message)
end)

ref:legal(function(r, err)
    check("legal awaits the PIP die", r and r.legal.dice and r.legal.dice["for"] == "pips", err and err.message)
end)

ref:apply({ action = "roll_pips", die = 6 }, function(r, err)
    check("the PIP die applies", r and r.revision == 1, err and err.message)
    check("it reports the PIPs", r and r.events[1].event == "pips_rolled" and r.events[1].pips == 6)
end)

ref:legal(function(r, err)
    local movers = r and r.legal.moves or {}
    check("legal lists the movers after the roll", #movers > 0, err and err.message)
end)

ref:state(function(r, err)
    local pose
    for _, e in ipairs(r and r.elements or {}) do
        if e.id == 2 then pose = e.pose end
    end
    check("state gives poses in the tts frame", pose and pose.z ~= nil and pose.heading ~= nil, err and err.message)
end)

ref:check({ action = "fight", a = 2, b = 102, dice = { 5, 1 } }, function(r, err)
    check("check answers a refusal as a result", r and r.legal == false and r.refusal.rule == "§6.1", err and err.message)
end)

ref:apply({ action = "fight", a = 2, b = 102, dice = { 5, 1 } }, function(r, err)
    check("apply answers a refusal as an error naming the rule",
        r == nil and err and err.code == -32003 and err.data.rule == "§6.1")
end)

local move = { action = "move", order = { type = "into_contact", ids = { 2 }, target = 102, contact = "front" } }
ref:apply(move, function(r, err)
    check("a move into contact applies", r and r.revision == 2, err and err.message)
    local to = r and r.events[1].moves[1].to
    check("its end pose is in the tts frame", to and to.z ~= nil and to.y == nil)
end)

-- Another client moves first: the stale revision is reported and remembered.
ref.revision = 1
ref:apply({ action = "end_movement" }, function(r, err)
    check("a stale revision is refused", r == nil and err and err.code == -32002)
    check("and the client learns the battle's revision", ref.revision == 2)
end)

-- The referee gone: a port nobody listens on.
local gone = Referee.new({ url = "http://127.0.0.1:9", web = web, json = json, wait = wait })
gone:health(function(up, why)
    check("health reports the referee offline", not up and why:find("offline") ~= nil, why)
end)
gone:call("hello", {}, function(r, err)
    check("a call to an offline referee fails softly", r == nil and err.offline == true)
end)

print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
