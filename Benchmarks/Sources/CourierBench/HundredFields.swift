// Generated once by a short script; 100 stored properties of five kinds, and the same query written by hand.
import Foundation

/// A filter with 100 fields: integers, strings that need percent-encoding, doubles, bools and optionals.
struct HundredFields: Encodable, Sendable {
  var field00: Int = 0
  var field01: String = "value 1 & more/é"
  var field02: Double = 2.25
  var field03: Bool = true
  var field04: String? = "opt-4"
  var field05: Int = 185
  var field06: String = "value 6 & more/é"
  var field07: Double = 7.25
  var field08: Bool = false
  var field09: String? = nil
  var field10: Int = 370
  var field11: String = "value 11 & more/é"
  var field12: Double = 12.25
  var field13: Bool = true
  var field14: String? = "opt-14"
  var field15: Int = 555
  var field16: String = "value 16 & more/é"
  var field17: Double = 17.25
  var field18: Bool = false
  var field19: String? = "opt-19"
  var field20: Int = 740
  var field21: String = "value 21 & more/é"
  var field22: Double = 22.25
  var field23: Bool = true
  var field24: String? = nil
  var field25: Int = 925
  var field26: String = "value 26 & more/é"
  var field27: Double = 27.25
  var field28: Bool = false
  var field29: String? = "opt-29"
  var field30: Int = 1110
  var field31: String = "value 31 & more/é"
  var field32: Double = 32.25
  var field33: Bool = true
  var field34: String? = "opt-34"
  var field35: Int = 1295
  var field36: String = "value 36 & more/é"
  var field37: Double = 37.25
  var field38: Bool = false
  var field39: String? = nil
  var field40: Int = 1480
  var field41: String = "value 41 & more/é"
  var field42: Double = 42.25
  var field43: Bool = true
  var field44: String? = "opt-44"
  var field45: Int = 1665
  var field46: String = "value 46 & more/é"
  var field47: Double = 47.25
  var field48: Bool = false
  var field49: String? = "opt-49"
  var field50: Int = 1850
  var field51: String = "value 51 & more/é"
  var field52: Double = 52.25
  var field53: Bool = true
  var field54: String? = nil
  var field55: Int = 2035
  var field56: String = "value 56 & more/é"
  var field57: Double = 57.25
  var field58: Bool = false
  var field59: String? = "opt-59"
  var field60: Int = 2220
  var field61: String = "value 61 & more/é"
  var field62: Double = 62.25
  var field63: Bool = true
  var field64: String? = "opt-64"
  var field65: Int = 2405
  var field66: String = "value 66 & more/é"
  var field67: Double = 67.25
  var field68: Bool = false
  var field69: String? = nil
  var field70: Int = 2590
  var field71: String = "value 71 & more/é"
  var field72: Double = 72.25
  var field73: Bool = true
  var field74: String? = "opt-74"
  var field75: Int = 2775
  var field76: String = "value 76 & more/é"
  var field77: Double = 77.25
  var field78: Bool = false
  var field79: String? = "opt-79"
  var field80: Int = 2960
  var field81: String = "value 81 & more/é"
  var field82: Double = 82.25
  var field83: Bool = true
  var field84: String? = nil
  var field85: Int = 3145
  var field86: String = "value 86 & more/é"
  var field87: Double = 87.25
  var field88: Bool = false
  var field89: String? = "opt-89"
  var field90: Int = 3330
  var field91: String = "value 91 & more/é"
  var field92: Double = 92.25
  var field93: Bool = true
  var field94: String? = "opt-94"
  var field95: Int = 3515
  var field96: String = "value 96 & more/é"
  var field97: Double = 97.25
  var field98: Bool = false
  var field99: String? = nil

  /// The query items a developer would write by hand for this struct, the raw baseline for the encoder.
  var handWrittenItems: [URLQueryItem] {
    var items: [URLQueryItem] = []
    items.reserveCapacity(100)
    items.append(URLQueryItem(name: "field00", value: String(field00)))
    items.append(URLQueryItem(name: "field01", value: field01))
    items.append(URLQueryItem(name: "field02", value: String(field02)))
    items.append(URLQueryItem(name: "field03", value: field03 ? "true" : "false"))
    if let field04 { items.append(URLQueryItem(name: "field04", value: field04)) }
    items.append(URLQueryItem(name: "field05", value: String(field05)))
    items.append(URLQueryItem(name: "field06", value: field06))
    items.append(URLQueryItem(name: "field07", value: String(field07)))
    items.append(URLQueryItem(name: "field08", value: field08 ? "true" : "false"))
    if let field09 { items.append(URLQueryItem(name: "field09", value: field09)) }
    items.append(URLQueryItem(name: "field10", value: String(field10)))
    items.append(URLQueryItem(name: "field11", value: field11))
    items.append(URLQueryItem(name: "field12", value: String(field12)))
    items.append(URLQueryItem(name: "field13", value: field13 ? "true" : "false"))
    if let field14 { items.append(URLQueryItem(name: "field14", value: field14)) }
    items.append(URLQueryItem(name: "field15", value: String(field15)))
    items.append(URLQueryItem(name: "field16", value: field16))
    items.append(URLQueryItem(name: "field17", value: String(field17)))
    items.append(URLQueryItem(name: "field18", value: field18 ? "true" : "false"))
    if let field19 { items.append(URLQueryItem(name: "field19", value: field19)) }
    items.append(URLQueryItem(name: "field20", value: String(field20)))
    items.append(URLQueryItem(name: "field21", value: field21))
    items.append(URLQueryItem(name: "field22", value: String(field22)))
    items.append(URLQueryItem(name: "field23", value: field23 ? "true" : "false"))
    if let field24 { items.append(URLQueryItem(name: "field24", value: field24)) }
    items.append(URLQueryItem(name: "field25", value: String(field25)))
    items.append(URLQueryItem(name: "field26", value: field26))
    items.append(URLQueryItem(name: "field27", value: String(field27)))
    items.append(URLQueryItem(name: "field28", value: field28 ? "true" : "false"))
    if let field29 { items.append(URLQueryItem(name: "field29", value: field29)) }
    items.append(URLQueryItem(name: "field30", value: String(field30)))
    items.append(URLQueryItem(name: "field31", value: field31))
    items.append(URLQueryItem(name: "field32", value: String(field32)))
    items.append(URLQueryItem(name: "field33", value: field33 ? "true" : "false"))
    if let field34 { items.append(URLQueryItem(name: "field34", value: field34)) }
    items.append(URLQueryItem(name: "field35", value: String(field35)))
    items.append(URLQueryItem(name: "field36", value: field36))
    items.append(URLQueryItem(name: "field37", value: String(field37)))
    items.append(URLQueryItem(name: "field38", value: field38 ? "true" : "false"))
    if let field39 { items.append(URLQueryItem(name: "field39", value: field39)) }
    items.append(URLQueryItem(name: "field40", value: String(field40)))
    items.append(URLQueryItem(name: "field41", value: field41))
    items.append(URLQueryItem(name: "field42", value: String(field42)))
    items.append(URLQueryItem(name: "field43", value: field43 ? "true" : "false"))
    if let field44 { items.append(URLQueryItem(name: "field44", value: field44)) }
    items.append(URLQueryItem(name: "field45", value: String(field45)))
    items.append(URLQueryItem(name: "field46", value: field46))
    items.append(URLQueryItem(name: "field47", value: String(field47)))
    items.append(URLQueryItem(name: "field48", value: field48 ? "true" : "false"))
    if let field49 { items.append(URLQueryItem(name: "field49", value: field49)) }
    items.append(URLQueryItem(name: "field50", value: String(field50)))
    items.append(URLQueryItem(name: "field51", value: field51))
    items.append(URLQueryItem(name: "field52", value: String(field52)))
    items.append(URLQueryItem(name: "field53", value: field53 ? "true" : "false"))
    if let field54 { items.append(URLQueryItem(name: "field54", value: field54)) }
    items.append(URLQueryItem(name: "field55", value: String(field55)))
    items.append(URLQueryItem(name: "field56", value: field56))
    items.append(URLQueryItem(name: "field57", value: String(field57)))
    items.append(URLQueryItem(name: "field58", value: field58 ? "true" : "false"))
    if let field59 { items.append(URLQueryItem(name: "field59", value: field59)) }
    items.append(URLQueryItem(name: "field60", value: String(field60)))
    items.append(URLQueryItem(name: "field61", value: field61))
    items.append(URLQueryItem(name: "field62", value: String(field62)))
    items.append(URLQueryItem(name: "field63", value: field63 ? "true" : "false"))
    if let field64 { items.append(URLQueryItem(name: "field64", value: field64)) }
    items.append(URLQueryItem(name: "field65", value: String(field65)))
    items.append(URLQueryItem(name: "field66", value: field66))
    items.append(URLQueryItem(name: "field67", value: String(field67)))
    items.append(URLQueryItem(name: "field68", value: field68 ? "true" : "false"))
    if let field69 { items.append(URLQueryItem(name: "field69", value: field69)) }
    items.append(URLQueryItem(name: "field70", value: String(field70)))
    items.append(URLQueryItem(name: "field71", value: field71))
    items.append(URLQueryItem(name: "field72", value: String(field72)))
    items.append(URLQueryItem(name: "field73", value: field73 ? "true" : "false"))
    if let field74 { items.append(URLQueryItem(name: "field74", value: field74)) }
    items.append(URLQueryItem(name: "field75", value: String(field75)))
    items.append(URLQueryItem(name: "field76", value: field76))
    items.append(URLQueryItem(name: "field77", value: String(field77)))
    items.append(URLQueryItem(name: "field78", value: field78 ? "true" : "false"))
    if let field79 { items.append(URLQueryItem(name: "field79", value: field79)) }
    items.append(URLQueryItem(name: "field80", value: String(field80)))
    items.append(URLQueryItem(name: "field81", value: field81))
    items.append(URLQueryItem(name: "field82", value: String(field82)))
    items.append(URLQueryItem(name: "field83", value: field83 ? "true" : "false"))
    if let field84 { items.append(URLQueryItem(name: "field84", value: field84)) }
    items.append(URLQueryItem(name: "field85", value: String(field85)))
    items.append(URLQueryItem(name: "field86", value: field86))
    items.append(URLQueryItem(name: "field87", value: String(field87)))
    items.append(URLQueryItem(name: "field88", value: field88 ? "true" : "false"))
    if let field89 { items.append(URLQueryItem(name: "field89", value: field89)) }
    items.append(URLQueryItem(name: "field90", value: String(field90)))
    items.append(URLQueryItem(name: "field91", value: field91))
    items.append(URLQueryItem(name: "field92", value: String(field92)))
    items.append(URLQueryItem(name: "field93", value: field93 ? "true" : "false"))
    if let field94 { items.append(URLQueryItem(name: "field94", value: field94)) }
    items.append(URLQueryItem(name: "field95", value: String(field95)))
    items.append(URLQueryItem(name: "field96", value: field96))
    items.append(URLQueryItem(name: "field97", value: String(field97)))
    items.append(URLQueryItem(name: "field98", value: field98 ? "true" : "false"))
    if let field99 { items.append(URLQueryItem(name: "field99", value: field99)) }
    return items
  }
}
